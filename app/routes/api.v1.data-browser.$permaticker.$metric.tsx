import { authorize } from '~/services/auth/api.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/services/http/api.server';
import { marketAnswer } from '~/services/market/store/data-version.server';
import { notFound, unprocessable } from '~/services/http/errors';
import { formatOf, respond } from '~/services/company/company-api.server';
import { parseView } from '~/services/data-browser/data-browser';
import { browseMetric } from '~/services/data-browser/data-browser.server';
import { browserTable } from '~/services/company/table-exports';

// GET /api/v1/data-browser/{permaticker}/{metric}?compare=&mode=&from=&to=&as_of=&format=json|csv
// => the data browser's table: {metric, companies, from, to, mode, as_of, rows: [{date, values}], series}.
// The CSV is exactly the page's table (newest first, one column per company).
export const loader = ({ params, request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.data-browser.$permaticker.$metric');
    return marketAnswer(request, async () => {
      const url = new URL(request.url);
      const format = formatOf(url);
      const permaticker = /^[1-9]\d{0,8}$/.test(params.permaticker ?? '') ? Number(params.permaticker) : null;
      if (permaticker === null) throw notFound(`Unknown security: ${params.permaticker}`);
      const search = new URLSearchParams(url.searchParams);
      search.delete('format');
      const parsed = parseView(search);
      if (!parsed.ok) throw unprocessable('Invalid query parameters.', parsed.errors);
      const v = parsed.view;
      const b = await browseMetric(permaticker, params.metric ?? '', v);
      const m = b.metric;
      return respond(
        format,
        {
          metric: { id: m.id, label: m.label, unit: m.unit, format: m.format, frequency: m.frequency },
          companies: b.companies,
          mode: v.mode,
          from: b.from,
          to: b.to,
          as_of: v.asOf,
          rows: b.rows,
          series: b.series,
        },
        () => browserTable(b),
        `${b.companies.map((c) => c.ticker).join('-')}-${m.id}.csv`,
      );
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
