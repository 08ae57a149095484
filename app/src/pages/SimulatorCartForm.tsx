/**
 * The simulator's cart form (the view of app/src/pages/SimulatorPage.tsx): scope, cart lines
 * (picked from the catalog or typed by id), currency, market, customer, codes and, for the drafts'
 * scopes, what-if redemptions; the server's 400 shows at the field its `path` names.
 */
import { Banner, BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineStack, Select, Text, TextField } from '@shopify/polaris';
import type { CampaignListItem } from '../api/client.ts';
import type { CatalogNames } from '../names.ts';
import { GiftPicker } from './GiftPicker.tsx';

export type Line = { key: number; productId: string; variantId: string; quantity: string; price: string };
/** `live`, `all` or a campaign id. */
export type Scope = string;
export type Problem = { text: string; path?: string | undefined };

/** What the merchant typed: the cart, the customer and the scope to evaluate with. */
export type SimulatorForm = {
  scope: Scope;
  lines: Line[];
  currency: string;
  market: string;
  country: string;
  loggedIn: boolean;
  customerId: string;
  tags: string;
  codes: string;
  redemptions: string;
};

let nextLineKey = 1;
export const newLine = (): Line => ({ key: nextLineKey++, productId: '', variantId: '', quantity: '1', price: '' });

type Props = {
  form: SimulatorForm;
  update: (patch: Partial<SimulatorForm>) => void;
  campaigns: readonly CampaignListItem[];
  names: CatalogNames;
  problem: Problem | undefined;
  running: boolean;
  onRun: () => void;
};

export function SimulatorCartForm({ form, update, campaigns, names, problem, running, onRun }: Props) {
  const setLine = (key: number, field: keyof Omit<Line, 'key'>, value: string) => update({ lines: form.lines.map((line) => (line.key === key ? { ...line, [field]: value } : line)) });
  /** The server's message at the field its `path` names (the cart or, for the simulate route, context.cart). */
  const fieldError = (...paths: string[]): string | undefined => {
    const path = problem?.path?.replace(/^context\./, '');
    return path !== undefined && paths.includes(path) ? problem?.text : undefined;
  };
  const lineError = (index: number, field: string) => fieldError(`cart.lines.${index}.${field}`);
  const scopeOptions = [
    { label: 'Live rules (what the storefront gets now)', value: 'live' },
    { label: 'Every campaign, drafts included', value: 'all' },
    ...campaigns.map((item) => ({ label: `Campaign: ${item.name}`, value: item.id })),
  ];

  return (
    <Card>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onRun();
        }}
      >
        <BlockStack gap="400">
          <Select label="Evaluate with" options={scopeOptions} value={form.scope} onChange={(scope) => update({ scope })} />
          <Text as="h2" variant="headingMd">
            Cart
          </Text>
          {form.lines.map((line, index) => (
            <Box key={line.key} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
              <BlockStack gap="200">
                <Text as="h3" variant="headingSm">
                  {`Line ${index + 1}${names.variant(line.variantId) ?? names.product(line.productId) ? `: ${names.variant(line.variantId) ?? names.product(line.productId)}` : ''}`}
                </Text>
                <GiftPicker
                  label={`line ${index + 1}`}
                  onPick={({ productId, variantId }) => update({ lines: form.lines.map((candidate) => (candidate.key === line.key ? { ...candidate, productId, variantId } : candidate)) })}
                />
                <FormLayout>
                  <FormLayout.Group condensed>
                    <TextField label={`Product ID, line ${index + 1}`} value={line.productId} onChange={(value) => setLine(line.key, 'productId', value)} autoComplete="off" placeholder="gid://shopify/Product/1" error={lineError(index, 'productId')} />
                    <TextField label={`Variant ID, line ${index + 1}`} value={line.variantId} onChange={(value) => setLine(line.key, 'variantId', value)} autoComplete="off" placeholder="gid://shopify/ProductVariant/1" error={lineError(index, 'variantId')} />
                  </FormLayout.Group>
                  <FormLayout.Group condensed>
                    <TextField label={`Quantity, line ${index + 1}`} type="number" min={0} value={line.quantity} onChange={(value) => setLine(line.key, 'quantity', value)} autoComplete="off" error={lineError(index, 'quantity')} />
                    <TextField label={`Unit price, line ${index + 1}`} inputMode="decimal" value={line.price} onChange={(value) => setLine(line.key, 'price', value)} autoComplete="off" suffix={form.currency.trim().toUpperCase()} placeholder="25.00" error={lineError(index, 'price')} />
                  </FormLayout.Group>
                </FormLayout>
                {form.lines.length > 1 && (
                  <InlineStack>
                    <Button tone="critical" variant="plain" onClick={() => update({ lines: form.lines.filter((item) => item.key !== line.key) })}>
                      {`Remove line ${index + 1}`}
                    </Button>
                  </InlineStack>
                )}
              </BlockStack>
            </Box>
          ))}
          <InlineStack>
            <Button onClick={() => update({ lines: [...form.lines, newLine()] })}>Add a line</Button>
          </InlineStack>
          <FormLayout>
            <FormLayout.Group condensed>
              <TextField label="Currency" value={form.currency} onChange={(currency) => update({ currency })} autoComplete="off" maxLength={3} helpText="ISO code, e.g. USD" error={fieldError('cart.currency')} />
              <TextField label="Discount codes" value={form.codes} onChange={(codes) => update({ codes })} autoComplete="off" helpText="Separated by commas" error={fieldError('cart.discountCodes')} />
            </FormLayout.Group>
            <FormLayout.Group condensed>
              <TextField label="Market handle" value={form.market} onChange={(market) => update({ market })} autoComplete="off" placeholder="e.g. eu" error={fieldError('market.handle', 'market')} />
              <TextField label="Country" value={form.country} onChange={(country) => update({ country })} autoComplete="off" maxLength={2} placeholder="e.g. DE" error={fieldError('market.country')} />
            </FormLayout.Group>
          </FormLayout>
          <Text as="h2" variant="headingMd">
            Customer
          </Text>
          <FormLayout>
            <Checkbox label="Logged in" checked={form.loggedIn} onChange={(loggedIn) => update({ loggedIn })} />
            <FormLayout.Group condensed>
              <TextField label="Customer ID" value={form.customerId} onChange={(customerId) => update({ customerId })} autoComplete="off" placeholder="gid://shopify/Customer/1" error={fieldError('customer.id')} />
              <TextField label="Customer tags" value={form.tags} onChange={(tags) => update({ tags })} autoComplete="off" helpText="Separated by commas" error={fieldError('customer.tags')} />
            </FormLayout.Group>
            {form.scope !== 'live' && (
              <TextField
                label="Redemptions to try"
                value={form.redemptions}
                onChange={(redemptions) => update({ redemptions })}
                multiline={2}
                autoComplete="off"
                helpText="Limits per customer: one per line, rule name=orders so far (e.g. Once each=1). Empty uses the customer's real redemptions"
                error={problem?.path?.startsWith('redemptions') ? problem.text : undefined}
              />
            )}
          </FormLayout>
          {problem && (
            <Banner tone="critical" title="The cart could not be simulated">
              <p>
                {problem.text}
                {problem.path ? ` (${problem.path})` : ''}
              </p>
            </Banner>
          )}
          <InlineStack>
            <Button submit variant="primary" loading={running}>
              Simulate
            </Button>
          </InlineStack>
        </BlockStack>
      </form>
    </Card>
  );
}
