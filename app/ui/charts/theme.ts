// The product's chart settings as nivo configuration, in one place so every chart looks alike:
// light colours, padding 24 top / 24 right, no x grid, very light grey borders, bold data labels,
// tooltips with a white background and a 1px semi-transparent black border.

/** Light, distinguishable series colours (first one is the company itself). */
export const CHART_COLORS = ['#5b8ff9', '#5ad8a6', '#f6bd16', '#e8684a', '#6dc8ec', '#9270ca', '#ff9d4d', '#269a99', '#ff99c3', '#5d7092'];

export const VERY_LIGHT_GREY = '#e6e6e6';

/** Room for axis labels on the left/bottom; top and right are the spec's 24. */
export const CHART_MARGIN = { top: 24, right: 24, bottom: 36, left: 64 };

export const CHART_THEME = {
  background: '#ffffff',
  text: { fontSize: 11, fill: '#333333' },
  axis: {
    domain: { line: { stroke: VERY_LIGHT_GREY, strokeWidth: 1 } },
    ticks: { line: { stroke: VERY_LIGHT_GREY, strokeWidth: 1 }, text: { fill: '#444444', fontSize: 11 } },
  },
  grid: { line: { stroke: '#f0f0f0', strokeWidth: 1 } },
  labels: { text: { fontWeight: 700, fill: '#111111' } },
  // Line point labels read the dots theme: bold on top of the point, like bar labels.
  dots: { text: { fontWeight: 700, fill: '#111111' } },
  tooltip: {
    container: {
      background: '#ffffff',
      color: '#000000',
      border: '1px solid rgba(0, 0, 0, 0.25)',
      borderRadius: 4,
      boxShadow: 'none',
      fontSize: 12,
      padding: '6px 8px',
    },
  },
} as const;

export const TOOLTIP_STYLE = CHART_THEME.tooltip.container;

/** Default drawing size; the SVG is re-drawn at the container's width once JavaScript runs. */
export const DEFAULT_WIDTH = 720;
export const DEFAULT_HEIGHT = 300;
