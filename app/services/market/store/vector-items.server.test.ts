import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { copyVector } from './vector-items.server';

// Result vectors copied into typed arrays as the node API reads them value by value, NULLs as NaN.

describe('copyVector', () => {
  it('copies DOUBLE and INTEGER columns with and without NULLs as the values one by one would read', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      // NULLs at the edges of 32- and 64-row words, in runs, and none at all in some chunks.
      const query = `
        SELECT i::INTEGER AS i,
               CASE WHEN i % 97 IN (0, 31, 32, 63) OR i BETWEEN 3000 AND 3070 THEN NULL ELSE (i * 0.5)::DOUBLE END AS d,
               CASE WHEN i % 89 = 1 OR i = 5000 THEN NULL ELSE (i * 7)::INTEGER END AS n,
               CASE WHEN i >= 4096 THEN NULL ELSE 1.25::DOUBLE END AS tail
          FROM range(6000) t(i) ORDER BY i`;
      const [[expectedNulls]] = (
        await conn.runAndReadAll(
          `SELECT (count(*) FILTER (d IS NULL) + count(*) FILTER (n IS NULL) + count(*) FILTER (tail IS NULL))::INTEGER FROM (${query})`,
        )
      ).getRows();
      const result = await conn.run(query);
      let rows = 0;
      let nulls = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        for (let c = 0; c < 4; c++) {
          const vector = chunk.getColumnVector(c);
          const copied = c === 0 || c === 2 ? new Int32Array(chunk.rowCount + 3) : new Float64Array(chunk.rowCount + 3);
          copyVector(vector, chunk.rowCount, copied, 3);
          for (let r = 0; r < chunk.rowCount; r++) {
            const one = vector.getItem(r) as number | null;
            if (one === null) nulls++;
            const want = one === null ? Number.NaN : one;
            // An INTEGER array holds a NULL's NaN as 0, as the value-by-value copy stored it.
            expect(copied[3 + r]).toBe(copied instanceof Int32Array && Number.isNaN(want) ? 0 : want);
          }
        }
        rows += chunk.rowCount;
      }
      expect(rows).toBe(6000);
      expect(nulls).toBe(expectedNulls);
      expect(nulls).toBeGreaterThan(2000);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
