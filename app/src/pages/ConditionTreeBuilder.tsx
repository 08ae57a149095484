/**
 * The visual condition-tree builder: AND / OR / NOT groups and the engine's leaves, each with
 * every field it has (threshold overrides per currency and per market included), as its form in
 * the engine's leaf registry lists them (LeafFields.tsx). Leaves the shop's plan may not use are
 * listed but locked, naming the plan that unlocks them (the engine's plan matrix). Every change
 * is a labelled control or button, so the tree is built by keyboard alone. Fields show the
 * server's error when its `path` names them (ConditionFields.tsx).
 */
import { Badge, BlockStack, Box, Button, InlineStack, Select, Text } from '@shopify/polaris';
import { LEAF_TYPES, PLAN_NAMES, isLeafAllowed, leafForm, newLeaf, unlockingPlan } from '@gcrs/engine';
import type { ConditionNode, LeafType, Plan } from '@gcrs/engine';
import { useErrorAt } from './ConditionFields.tsx';
import type { Path } from './ConditionFields.tsx';
import { LeafFields } from './LeafFields.tsx';

export type { Plan };

const GROUP_LABEL = { AND: 'All of (AND)', OR: 'Any of (OR)', NOT: 'Not (NOT)' } as const;

function convert(node: ConditionNode, type: string): ConditionNode {
  const children = node.type === 'AND' || node.type === 'OR' ? node.children : node.type === 'NOT' ? [node.child] : [node];
  if (type === 'AND' || type === 'OR') return { type, children };
  if (type === 'NOT') return { type, child: children[0] ?? newLeaf('cart.subtotal_gte') };
  return newLeaf(type as LeafType);
}

type NodeProps = {
  node: ConditionNode;
  onChange: (node: ConditionNode) => void;
  onRemove?: () => void;
  plan: Plan;
  path: Path;
  /** Human name of the node, e.g. "Condition 1.2", used in every label inside it. */
  name: string;
  depth: number;
};

function typeOptions(plan: Plan) {
  return [
    ...(['AND', 'OR', 'NOT'] as const).map((type) => ({ label: GROUP_LABEL[type], value: type })),
    ...LEAF_TYPES.map((type) => {
      const allowed = isLeafAllowed(plan, type);
      return {
        label: allowed ? leafForm(type).label : `${leafForm(type).label} — locked: ${PLAN_NAMES[unlockingPlan(type)]} plan`,
        value: type,
        disabled: !allowed,
      };
    }),
  ];
}

export function ConditionNodeEditor({ node, onChange, onRemove, plan, path, name, depth }: NodeProps) {
  const isGroup = node.type === 'AND' || node.type === 'OR' || node.type === 'NOT';
  const locked = !isGroup && !isLeafAllowed(plan, node.type);
  const error = useErrorAt(path);
  const children = node.type === 'AND' || node.type === 'OR' ? node.children : [];
  const setChild = (index: number, child: ConditionNode) => {
    if (node.type === 'AND' || node.type === 'OR') onChange({ ...node, children: children.map((c, i) => (i === index ? child : c)) });
  };
  const add = (child: ConditionNode) => {
    if (node.type === 'AND' || node.type === 'OR') onChange({ ...node, children: [...children, child] });
  };
  return (
    <fieldset style={{ border: '1px solid var(--p-color-border)', borderRadius: 'var(--p-border-radius-200)', padding: 'var(--p-space-300)', margin: 0, minWidth: 0, background: depth % 2 ? 'var(--p-color-bg-surface-secondary)' : undefined }}>
      <legend style={{ padding: '0 var(--p-space-100)' }}>
        <Text as="span" variant="headingSm">
          {name}
        </Text>
      </legend>
      <BlockStack gap="200">
        <Select label={`${name}: type`} options={typeOptions(plan)} value={node.type} onChange={(type) => onChange(convert(node, type))} />
        {locked && (
          <InlineStack gap="200" blockAlign="center">
            <Badge tone="warning">Locked</Badge>
            <Text as="span" tone="caution">
              Needs the {PLAN_NAMES[unlockingPlan(node.type as LeafType)]} plan: this condition is removed when you save.
            </Text>
          </InlineStack>
        )}
        {error && !isGroup && (
          <Text as="p" tone="critical">
            {error}
          </Text>
        )}
        {!isGroup && <LeafFields leaf={node} onChange={onChange} path={path} label={name} />}
        {node.type === 'NOT' && (
          <ConditionNodeEditor node={node.child} onChange={(child) => onChange({ type: 'NOT', child })} plan={plan} path={[...path, 'child']} name={`${name}.1`} depth={depth + 1} />
        )}
        {(node.type === 'AND' || node.type === 'OR') && (
          <>
            {children.length === 0 && (
              <Text as="p" tone="subdued">
                No conditions in this group yet.
              </Text>
            )}
            {children.map((child, index) => (
              <ConditionNodeEditor
                key={index}
                node={child}
                onChange={(next) => setChild(index, next)}
                onRemove={() => onChange({ ...node, children: children.filter((_, i) => i !== index) })}
                plan={plan}
                path={[...path, 'children', index]}
                name={`${name}.${index + 1}`}
                depth={depth + 1}
              />
            ))}
            <InlineStack gap="200">
              <Button onClick={() => add(newLeaf('cart.subtotal_gte'))} accessibilityLabel={`Add condition to ${name}`}>
                Add condition
              </Button>
              <Button onClick={() => add({ type: 'OR', children: [] })} accessibilityLabel={`Add group to ${name}`}>
                Add group
              </Button>
            </InlineStack>
          </>
        )}
        <Box>
          <InlineStack gap="200">
            <Button variant="plain" onClick={() => onChange({ type: 'AND', children: [node] })} accessibilityLabel={`Put in a group: ${name}`}>
              Put in a group
            </Button>
            {onRemove && (
              <Button variant="plain" tone="critical" onClick={onRemove} accessibilityLabel={`Remove ${name}`}>
                Remove
              </Button>
            )}
          </InlineStack>
        </Box>
      </BlockStack>
    </fieldset>
  );
}

/** The leaves the plan locks, each with the plan that unlocks it. */
export function LockedLeaves({ plan }: { plan: Plan }) {
  const locked = LEAF_TYPES.filter((type) => !isLeafAllowed(plan, type));
  if (locked.length === 0) return null;
  return (
    <Text as="p" tone="subdued">
      Locked on the {PLAN_NAMES[plan]} plan: {locked.map((type) => `${leafForm(type).label} (${PLAN_NAMES[unlockingPlan(type)]})`).join(', ')}.
    </Text>
  );
}
