/**
 * The progress bar's model (pure): how far the cart is toward the next threshold of
 * `widgets.progressBar.thresholds` and what is left to spend.
 */
import { minorUnitExponent } from '@gcrs/engine/planner';

export type ProgressThreshold = { amountCents: number; label?: string; giftVariantId?: string | null };

export type Progress = {
  /** The next threshold not reached yet, or undefined when every one is reached. */
  next: ProgressThreshold | undefined;
  /** Minor units still to spend to reach `next` (0 when complete). */
  remaining: number;
  /** 0..100 toward `next` (100 when complete). */
  percent: number;
  complete: boolean;
};

/**
 * @example progressToward(3000, [{ amountCents: 5000 }]) // { next: { amountCents: 5000 }, remaining: 2000, percent: 60, complete: false }
 */
export function progressToward(subtotal: number, thresholds: readonly ProgressThreshold[]): Progress {
  const sorted = [...thresholds].sort((a, b) => a.amountCents - b.amountCents);
  const next = sorted.find((threshold) => threshold.amountCents > subtotal);
  if (next === undefined) return { next: undefined, remaining: 0, percent: 100, complete: sorted.length > 0 };
  const percent = next.amountCents <= 0 ? 100 : Math.max(0, Math.min(100, Math.floor((subtotal / next.amountCents) * 100)));
  return { next, remaining: next.amountCents - subtotal, percent, complete: false };
}

/**
 * Minor units as a localised amount of `currency`, with ISO 4217's exponent.
 *
 * @example formatMoney(2000, 'USD', 'en-US') // '$20.00'
 */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const exponent = minorUnitExponent(currency);
  const amount = minor / 10 ** exponent;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(amount);
  } catch {
    return `${amount.toFixed(exponent)} ${currency}`;
  }
}

/**
 * A widget message with its `{{name}}` placeholders filled (unknown names left as they are).
 *
 * @example fillTemplate('Spend {{remaining}} more', { remaining: '$20.00' }) // 'Spend $20.00 more'
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? whole) : whole));
}
