/**
 * The experiment statistics against textbook values (normal table, the two-proportion z-test,
 * Welch's test, Fleiss' and the two-sample sample-size formulas); reference digits from
 * scipy.stats.norm.
 */
import { describe, expect, it } from 'vitest';
import {
  meansZTest,
  normalCdf,
  normalQuantile,
  sampleSizeForMeans,
  sampleSizeForProportions,
  sampleVariance,
  twoProportionZTest,
} from '../../src/experiments/statistics.ts';

const moments = (values: number[]) => ({
  n: values.length,
  sum: values.reduce((a, b) => a + b, 0),
  sumSquares: values.reduce((a, b) => a + b * b, 0),
});

describe('the standard normal', () => {
  it('matches the normal table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021, 6);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
    expect(normalCdf(3)).toBeCloseTo(0.9986501, 6);
  });

  it('inverts it: the quantiles of 97.5 %, 80 % and 0.1 %', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 6);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6);
    expect(normalQuantile(0.5)).toBe(0);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('twoProportionZTest', () => {
  it('50/100 against 40/100: z 1.4213, p 0.1552 (not significant)', () => {
    const result = twoProportionZTest(50, 100, 40, 100);
    expect(result?.z).toBeCloseTo(1.4213, 4);
    expect(result?.pValue).toBeCloseTo(0.1552, 4);
  });

  it('200/1000 against 250/1000: z −2.6774, p 0.0074 (significant at 5 %)', () => {
    const result = twoProportionZTest(200, 1000, 250, 1000);
    expect(result?.z).toBeCloseTo(-2.6774, 4);
    expect(result?.pValue).toBeCloseTo(0.00742, 5);
  });

  it('has nothing to say about an empty group or rates without variance', () => {
    expect(twoProportionZTest(0, 0, 5, 10)).toBeUndefined();
    expect(twoProportionZTest(0, 10, 0, 10)).toBeUndefined();
    expect(twoProportionZTest(10, 10, 20, 20)).toBeUndefined();
  });

  it('equal rates: z 0, p 1', () => {
    const result = twoProportionZTest(10, 100, 20, 200);
    expect(result?.z).toBe(0);
    expect(result?.pValue).toBeCloseTo(1, 6);
  });
});

describe('meansZTest (Welch)', () => {
  const a = [12, 15, 11, 18, 14, 16, 13, 17];
  const b = [10, 9, 12, 11, 8, 13, 10, 9];

  it('the sample variance of 12, 15, 11, 18, 14, 16, 13, 17 is 6', () => {
    expect(sampleVariance(moments(a))).toBeCloseTo(6, 10);
  });

  it('means 14.5 and 10.25, variances 6 and 39/14: z = 4.25 / √(6/8 + 39/112) = 4.0555, p 5.0e-5', () => {
    const result = meansZTest(moments(a), moments(b));
    expect(result?.z).toBeCloseTo(4.0555, 4);
    expect(result?.pValue).toBeCloseTo(5.0025e-5, 7);
  });

  it('needs two observations and some variance', () => {
    expect(meansZTest(moments([5]), moments(b))).toBeUndefined();
    expect(meansZTest(moments([5, 5]), moments([5, 5]))).toBeUndefined();
  });
});

describe('sample sizes (5 % two-sided, 80 % power)', () => {
  it('conversion 10 % → 12 %: 3,841 visitors per variant (Fleiss, no continuity correction)', () => {
    expect(sampleSizeForProportions(0.1, 0.12)).toBe(3841);
  });

  it('conversion 50 % → 55 %: 1,565 per variant', () => {
    expect(sampleSizeForProportions(0.5, 0.55)).toBe(1565);
  });

  it('means with sd 10 and a difference of 5: 63 per group; with 90 % power 85', () => {
    expect(sampleSizeForMeans(10, 5)).toBe(63);
    expect(sampleSizeForMeans(10, 5, 0.05, 0.9)).toBe(85);
  });

  it('no answer without a baseline or an effect', () => {
    expect(sampleSizeForProportions(0, 0.1)).toBeUndefined();
    expect(sampleSizeForProportions(0.1, 0.1)).toBeUndefined();
    expect(sampleSizeForMeans(0, 5)).toBeUndefined();
  });
});
