export { LineChart, type LineChartProps } from './LineChart';
export { BarChart, type BarChartProps } from './BarChart';
export { ChartTable } from './ChartTable';
export type { ChartPoint, ChartSeries, ScaleKind } from './chart-data';
