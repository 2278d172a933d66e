type Param = string | number;
export type Clause = [sql: string, ...params: Param[]];

/** `WHERE a AND b` from the clauses that apply (falsy ones skipped; '' for none), and their parameters in order. */
export function whereOf(clauses: Array<Clause | false | '' | null | undefined>): { where: string; params: Param[] } {
  const given = clauses.filter((c): c is Clause => Boolean(c));
  return {
    where: given.length ? `WHERE ${given.map((c) => c[0]).join(' AND ')}` : '',
    params: given.flatMap(([, ...params]) => params),
  };
}
