// Colours and number formatting shared by the charts.
export const palette = ['#1f5fa8', '#c2571a', '#2f8f46', '#8a3ea8', '#a8324a', '#3a8a8a', '#6b6b1f', '#555555'];

export const greyed = 'rgba(150, 150, 150, 0.45)';

export function formatNumber(value) {
  return Number(value).toLocaleString('en-US', { maximumFractionDigits: 3 });
}
