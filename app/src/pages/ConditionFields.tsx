/**
 * The condition builder's field controls: text fields that keep the merchant's text while they
 * type and send the parsed value (money in the shop's currency, integers, lists, overrides),
 * each showing the server's error when its `path` names the field (ErrorContext).
 */
import { TextField } from '@shopify/polaris';
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { toMajorText, toMinorUnits } from '../words.ts';

export type Path = readonly (string | number)[];

/** The server's validation error: its `path` (from the request body's root) and text. */
export type FieldError = { path: Path; text: string } | undefined;
export const ErrorContext = createContext<FieldError>(undefined);

/** The error text when the server's `path` is this field or inside it (a list's item). */
export function useErrorAt(path: Path): string | undefined {
  const error = useContext(ErrorContext);
  if (!error) return undefined;
  const key = path.join('.');
  const at = error.path.join('.');
  return at === key || at.startsWith(`${key}.`) ? error.text : undefined;
}

/**
 * A text field whose value is parsed (a number, a list, overrides): the merchant's text is kept
 * while typing and the parsed value goes up; a value changed elsewhere replaces the text.
 */
function ParsedField<T>(props: {
  label: string;
  value: T;
  format: (value: T) => string;
  parse: (text: string) => T;
  onChange: (value: T) => void;
  path: Path;
  helpText?: string;
  multiline?: boolean;
  type?: 'text' | 'number';
  /** What is wrong with the text, said before the server is asked (money that is not an amount). */
  invalid?: (text: string) => string | undefined;
  suffix?: string;
}) {
  const { value, format, parse } = props;
  const [text, setText] = useState(() => format(value));
  useEffect(() => {
    setText((current) => (JSON.stringify(parse(current)) === JSON.stringify(value) ? current : format(value)));
  }, [value, format, parse]);
  const error = useErrorAt(props.path) ?? props.invalid?.(text);
  return (
    <TextField
      label={props.label}
      value={text}
      type={props.type}
      suffix={props.suffix}
      multiline={props.multiline ? 2 : undefined}
      helpText={props.helpText}
      error={error}
      autoComplete="off"
      onChange={(next) => {
        setText(next);
        props.onChange(parse(next));
      }}
    />
  );
}

type FieldProps<T> = { label: string; value: T; onChange: (value: T) => void; path: Path; helpText?: string };

/** An integer; text that is not one is sent as typed, so the server names it. */
const formatNumber = (value: unknown) => (value === undefined ? '' : String(value));
const parseNumber = (text: string): unknown => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text);
export function NumberField(props: FieldProps<unknown>) {
  return <ParsedField {...props} type="number" format={formatNumber} parse={parseNumber} />;
}

const formatList = (value: unknown) => (Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '');
const parseList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
export function ListField(props: FieldProps<unknown>) {
  return <ParsedField {...props} helpText={props.helpText ?? 'Separate with commas'} format={formatList} parse={parseList} />;
}

export type Overrides = Record<string, number> | undefined;
const formatOverrides = (value: Overrides) =>
  Object.entries(value ?? {})
    .map(([key, amount]) => `${key}=${amount}`)
    .join('\n');
const parseOverrides = (text: string): Overrides => {
  const entries = text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [key = '', amount = ''] = line.split('=').map((part) => part.trim());
      return [key, /^-?\d+$/.test(amount) ? Number(amount) : (amount as unknown as number)] as const;
    });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};
export function OverridesField(props: FieldProps<Overrides>) {
  return <ParsedField {...props} multiline format={formatOverrides} parse={parseOverrides} />;
}

/** The shop's base currency (App provides it from the session): thresholds without an override are in it. */
export const ShopCurrency = createContext('USD');

/**
 * Money in major units of `currency` ("50" is 50.00), held in minor units with the currency's
 * exponent; text that is not an amount is said at the field and sent as typed (the server's 400).
 */
export function MoneyField(props: FieldProps<unknown> & { currency: string }) {
  const { currency } = props;
  const format = useCallback((value: unknown) => (typeof value === 'number' ? toMajorText(value, currency) : typeof value === 'string' ? value : ''), [currency]);
  const parse = useCallback((text: string): unknown => (text.trim() === '' ? undefined : (toMinorUnits(text, currency) ?? text)), [currency]);
  const invalid = (text: string) => (text.trim() !== '' && toMinorUnits(text, currency) === undefined ? `Enter an amount in ${currency}, e.g. ${toMajorText(5000, currency)}` : undefined);
  return <ParsedField {...props} format={format} parse={parse} invalid={invalid} suffix={currency} />;
}

/** `CODE=amount` lines, each amount in major units of its currency: "EUR=45" is 4500 cents. */
const formatMoneyOverrides = (value: Overrides) =>
  Object.entries(value ?? {})
    .map(([code, amount]) => `${code}=${typeof amount === 'number' ? toMajorText(amount, code) : String(amount)}`)
    .join('\n');
const parseMoneyOverrides = (text: string): Overrides => {
  const entries = text
    .split(/\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [code = '', amount = ''] = line.split('=').map((part) => part.trim());
      const key = code.toUpperCase();
      return [key, toMinorUnits(amount, key) ?? (amount as unknown as number)] as const;
    });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};
export function MoneyOverridesField(props: FieldProps<Overrides>) {
  return <ParsedField {...props} multiline format={formatMoneyOverrides} parse={parseMoneyOverrides} />;
}

/** Text as typed (or a `datetime-local` value), with the server's error for its path. */
export function PlainTextField(props: Omit<FieldProps<string | undefined>, 'onChange'> & { onChange: (value: string) => void; type?: 'text' | 'datetime-local'; focused?: boolean }) {
  const error = useErrorAt(props.path);
  return <TextField label={props.label} value={props.value ?? ''} onChange={props.onChange} error={error} type={props.type} helpText={props.helpText} autoComplete="off" focused={props.focused} />;
}
