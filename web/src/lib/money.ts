//! Baht as the shop shows it: two decimals with thousands separators.

const format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatBaht(amount: number): string {
  return format.format(amount);
}
