/** `row` without `columns`: what a query returns beside each row for the whole list (its total, a sort key, a rank). */
export function withoutColumns<Row extends object, Column extends keyof Row>(row: Row, ...columns: Column[]): Omit<Row, Column> {
  const dropped = new Set<PropertyKey>(columns);
  return Object.fromEntries(Object.entries(row).filter(([key]) => !dropped.has(key))) as Omit<Row, Column>;
}
