import { OVERVIEW_GROUPS } from '~/services/company/overview-stats';
import { getMetric } from '~/services/metrics/catalogue';
import { formatMetricValue } from '~/services/metrics/format';
import { Change } from '~/ui/Change';

// The overview's key statistics: a compact grid of labelled values, one card per group.
// Growth and returns are changes (sign and colour); everything else is formatted by its metric.

const CHANGES = new Set(['revenue_growth_yoy', 'revenue_growth_yoy_q', 'equity_growth_yoy', 'assets_growth_yoy', 'ret_ytd', 'ret_12m']);

export function KeyStatistics({ values }: { values: Record<string, number | null> }) {
  return (
    <section aria-labelledby="key-stats-title" className="key-stats">
      <h3 id="key-stats-title">Key statistics</h3>
      <div className="key-stats__grid">
        {OVERVIEW_GROUPS.map((g) => (
          <div key={g.title} className="key-stats__group">
            <h4>{g.title}</h4>
            <dl>
              {g.metrics.map((id) => {
                const metric = getMetric(id);
                if (!metric) return null;
                return (
                  <div key={id} data-testid={`stat-${id}`}>
                    <dt title={metric.definition}>{metric.label}</dt>
                    <dd>{CHANGES.has(id) ? <Change value={values[id]} /> : formatMetricValue(metric, values[id])}</dd>
                  </div>
                );
              })}
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}
