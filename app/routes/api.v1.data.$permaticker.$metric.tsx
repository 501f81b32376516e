import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, jsonResponse, methodNotAllowed, zodFieldErrors } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { notFound, unprocessable } from '~/services/http/errors';
import { MetricDataQuery } from '~/services/metrics/api-contract';
import { metricSeries } from '~/services/metrics/snapshots.server';

// GET /api/v1/data/{permaticker}/{metric}?from=&to=&as_of=&mode=
// => {permaticker, metric, mode, as_of, points: [{date, value, filed, accession}]}.
// mode: point_in_time (default: what was known each day), first_reported, latest (restated).

export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.data.$permaticker.$metric');
    return marketAnswer(request, async () => {
      const permaticker = /^[1-9]\d{0,9}$/.test(params.permaticker ?? '') ? Number(params.permaticker) : Number.NaN;
      if (!Number.isSafeInteger(permaticker) || permaticker > 2_147_483_647) throw notFound(`Unknown security: ${params.permaticker}`);
      const url = new URL(request.url);
      const parsed = MetricDataQuery.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) throw unprocessable('Invalid query parameters.', zodFieldErrors(parsed.error));
      const q = parsed.data;
      const series = await metricSeries(permaticker, params.metric ?? '', {
        from: q.from,
        to: q.to,
        asOf: q.as_of,
        mode: q.mode,
      });
      const m = series.metric;
      return jsonResponse({
        permaticker: series.permaticker,
        metric: {
          id: m.id,
          label: m.label,
          unit: m.unit,
          format: m.format,
          frequency: m.frequency,
        },
        mode: series.mode,
        as_of: series.asOf,
        points: series.points,
      });
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
