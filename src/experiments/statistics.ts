/**
 * The statistics of an experiment's results (docs/merchant-admin.md "Experiments"), pure and
 * without dependencies: the standard normal distribution, the two-proportion z-test for
 * conversion, a Welch z-test for means (order value, revenue per visitor), and the sample size
 * per variant for a stated significance level, power and minimum detectable effect.
 */

/** Two-sided significance level and power the results are read with. */
export const ALPHA = 0.05;
export const POWER = 0.8;
/** The smallest change worth detecting: 10 % of the runner-up's value (a relative effect). */
export const RELATIVE_MDE = 0.1;

/**
 * Complementary error function, Numerical Recipes' `erfcc` (a Chebyshev fit): fractional error
 * below 1.2e-7 everywhere, far finer than the p-values' printed digits.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * P(Z ≤ z) for a standard normal Z.
 *
 * @example normalCdf(1.959964) // ≈ 0.975
 */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/**
 * The z with P(Z ≤ z) = p (P. J. Acklam's rational approximation, relative error 1.15e-9).
 *
 * @example normalQuantile(0.975) // ≈ 1.959964
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('p must lie strictly between 0 and 1');
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (k: number[], x: number) => k.reduce((sum, coefficient) => sum * x + coefficient, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

export type TestResult = { z: number; pValue: number };

/** Two-sided p-value of a z statistic. */
const twoSided = (z: number): number => Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));

/**
 * Pooled two-proportion z-test of `x1/n1` against `x2/n2` (successes out of trials). Undefined
 * when a group is empty or both rates are 0 or both 1 (no variance to test against).
 *
 * @example twoProportionZTest(50, 100, 40, 100) // { z: 1.4213, pValue: 0.1552 }
 */
export function twoProportionZTest(x1: number, n1: number, x2: number, n2: number): TestResult | undefined {
  if (!(n1 > 0 && n2 > 0)) return undefined;
  const pooled = (x1 + x2) / (n1 + n2);
  const variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2);
  if (!(variance > 0)) return undefined;
  const z = (x1 / n1 - x2 / n2) / Math.sqrt(variance);
  return { z, pValue: twoSided(z) };
}

/** A sample summarised by its size, sum and sum of squares (enough for its mean and variance). */
export type Moments = { n: number; sum: number; sumSquares: number };

export const mean = (m: Moments): number => (m.n > 0 ? m.sum / m.n : 0);

/** Unbiased sample variance; 0 for fewer than two observations. */
export function sampleVariance(m: Moments): number {
  if (m.n < 2) return 0;
  return Math.max(0, (m.sumSquares - (m.sum * m.sum) / m.n) / (m.n - 1));
}

/**
 * Welch's test of two means with the normal approximation (the samples of a shop's experiment
 * are large enough that Student's t and the normal agree to the digits shown). Undefined with
 * fewer than two observations in a group or no variance at all.
 *
 * @example meansZTest({ n: 50, sum: 5250, sumSquares: … }, { n: 50, sum: 5000, sumSquares: … })
 */
export function meansZTest(a: Moments, b: Moments): TestResult | undefined {
  if (a.n < 2 || b.n < 2) return undefined;
  const standardError = Math.sqrt(sampleVariance(a) / a.n + sampleVariance(b) / b.n);
  if (!(standardError > 0)) return undefined;
  const z = (mean(a) - mean(b)) / standardError;
  return { z, pValue: twoSided(z) };
}

const zAlpha = (alpha: number) => normalQuantile(1 - alpha / 2);

/**
 * Visitors needed per variant to detect a change of conversion from `baseline` to `target`
 * (two-sided, pooled variance under the null; Fleiss without continuity correction).
 *
 * @example sampleSizeForProportions(0.10, 0.12) // 3841
 */
export function sampleSizeForProportions(baseline: number, target: number, alpha = ALPHA, power = POWER): number | undefined {
  if (!(baseline > 0 && baseline < 1 && target > 0 && target < 1) || baseline === target) return undefined;
  const average = (baseline + target) / 2;
  const numerator =
    zAlpha(alpha) * Math.sqrt(2 * average * (1 - average)) +
    normalQuantile(power) * Math.sqrt(baseline * (1 - baseline) + target * (1 - target));
  return Math.ceil((numerator * numerator) / ((target - baseline) * (target - baseline)));
}

/**
 * Observations needed per group to detect a difference `delta` of means with standard deviation
 * `sd` in each group: n = 2 (z₁₋α/₂ + z_power)² sd² / delta².
 *
 * @example sampleSizeForMeans(10, 5) // 63
 */
export function sampleSizeForMeans(sd: number, delta: number, alpha = ALPHA, power = POWER): number | undefined {
  if (!(sd > 0) || !(Math.abs(delta) > 0)) return undefined;
  const sum = zAlpha(alpha) + normalQuantile(power);
  return Math.ceil((2 * sum * sum * sd * sd) / (delta * delta));
}
