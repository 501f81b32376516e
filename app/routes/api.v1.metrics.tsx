import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { authorize } from '~/services/auth/api.server';
import { handleApi, jsonResponse, methodNotAllowed } from '~/services/http/api.server';
import { CATEGORY_LABELS, METRICS } from '~/services/metrics/catalogue';

// GET /api/v1/metrics => the metrics catalogue: {categories: [{id, label}], metrics: [{id, label,
// category, unit, format, frequency, definition, higher_is_better, concepts}]}.

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await authorize(request, 'api.v1.metrics');
    return jsonResponse({
      categories: Object.entries(CATEGORY_LABELS).map(([id, label]) => ({
        id,
        label,
      })),
      metrics: METRICS.map((m) => ({
        id: m.id,
        label: m.label,
        category: m.category,
        unit: m.unit,
        format: m.format,
        frequency: m.frequency,
        definition: m.definition,
        higher_is_better: m.higherIsBetter,
        concepts: m.concepts,
      })),
    });
  });

export const action = (_: ActionFunctionArgs) => handleApi(async () => methodNotAllowed(['GET']));
