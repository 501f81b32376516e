import { describe, expect, it } from 'vitest';
import { fixtureSecurity, instant, quarter } from '../testing/fixtures';
import { evaluateAt } from './evaluate';
import { altmanZ, piotroskiF } from './scores';
import { metricValue } from './snapshot';

describe('Altman Z', () => {
  it('weights the five ratios as Altman (1968)', () => {
    const z = altmanZ(
      {
        curAssets: 300,
        curLiab: 100,
        retained: 150,
        ebit: 50,
        assets: 1000,
        liabilities: 400,
        revenue: 800,
      },
      600,
    );
    expect(z).toBeCloseTo(1.2 * 0.2 + 1.4 * 0.15 + 3.3 * 0.05 + 0.6 * 1.5 + 1.0 * 0.8, 12);
  });

  it('is n/a when an input is missing', () => {
    expect(
      altmanZ(
        {
          curAssets: 300,
          curLiab: 100,
          retained: Number.NaN,
          ebit: 50,
          assets: 1000,
          liabilities: 400,
          revenue: 800,
        },
        600,
      ),
    ).toBeNaN();
  });

  it('is computed by the engine from filings and market cap', () => {
    const qs = (concept: string, v: number) => [
      quarter(concept, 2023, 2, v, '2023-08-01'),
      quarter(concept, 2023, 3, v, '2023-11-01'),
      quarter(concept, 2023, 4, v, '2024-02-01'),
      quarter(concept, 2024, 1, v, '2024-05-01'),
    ];
    const facts = [
      ...qs('operating_income', 12.5),
      ...qs('revenue', 200),
      ...[
        'current_assets:300',
        'current_liabilities:100',
        'retained_earnings:150',
        'total_assets:1000',
        'total_liabilities:400',
        'shares_outstanding:30',
      ].map((s) => {
        const [c, v] = s.split(':');
        return instant(c, '2024-03-31', Number(v), '2024-05-01');
      }),
    ];
    const sec = fixtureSecurity({
      start: '2023-06-01',
      days: 300,
      close: () => 20,
      facts,
    });
    const snap = evaluateAt({ securities: [sec], market: null }, '2024-06-03');
    expect(metricValue(snap, 1, 'altman_z')).toBeCloseTo(1.2 * 0.2 + 1.4 * 0.15 + 3.3 * 0.05 + 0.6 * 1.5 + 1.0 * 0.8, 12);
  });
});

describe('Piotroski F', () => {
  const improving = {
    netIncome: 50,
    netIncomePrev: 30,
    ocf: 70,
    assets: 1000,
    assetsPrev: 1000,
    ltd: 100,
    ltdPrev: 200,
    currentRatio: 2,
    currentRatioPrev: 1.5,
    shares: 100,
    sharesPrev: 100,
    grossMargin: 0.4,
    grossMarginPrev: 0.35,
    revenue: 900,
    revenuePrev: 800,
  };

  it('scores nine when every test passes', () => {
    expect(piotroskiF(improving)).toBe(9);
  });

  it('loses one point per failed test', () => {
    // Loss (ROA ≤ 0, ROA down, OCF < NI fails? no: OCF 70 > −10 passes), share issuance, margin down.
    expect(
      piotroskiF({
        ...improving,
        netIncome: -10,
        shares: 120,
        grossMargin: 0.3,
      }),
    ).toBe(9 - 4);
    expect(piotroskiF({ ...improving, ocf: 40 })).toBe(8); // accruals: OCF below net income
  });

  it('is n/a when an input is missing', () => {
    expect(piotroskiF({ ...improving, ltdPrev: Number.NaN })).toBeNaN();
  });
});
