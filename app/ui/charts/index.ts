export { LineChart } from './LineChart';
export { BarChart } from './BarChart';
export type { ChartSeries } from './chart-data';
