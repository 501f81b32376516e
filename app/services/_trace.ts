export const T = (label: string) => {
  if (process.env.BTPATH_TRACE) (globalThis as any).__tr = ((globalThis as any).__tr ?? []).concat([[label, performance.timeOrigin + performance.now()]]);
  if (process.env.BTPATH_TRACE) console.log(`TR ${label} ${(performance.timeOrigin + performance.now()).toFixed(2)}`);
};
