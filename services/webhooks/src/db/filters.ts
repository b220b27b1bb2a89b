// The where clause of a list read whose filters are each optional (alerts, sessions): the statement
// names only the filters given, so each is planned on the index that serves it.

/** A position in a list ordered newest first by a time, then by arrival (sequence number). */
export interface TimePosition {
  at: Date;
  seq: string;
}

/**
 * Conditions joined by `and`, and the values of their parameters: it starts from the conditions
 * every row meets (their values already in `values`); each one added gets the next parameter numbers.
 */
export class Filters {
  private readonly conditions: string[];

  constructor(
    always: string[],
    readonly values: unknown[],
  ) {
    this.conditions = [...always];
  }

  /** Adds a condition made from the number of its first parameter, with the values of its parameters. */
  add(condition: (n: number) => string, ...values: unknown[]): void {
    this.conditions.push(condition(this.values.length + 1));
    this.values.push(...values);
  }

  /** The rows whose `column` is from `since` (inclusive) to `until` (exclusive), each bound when given. */
  window(column: string, since: Date | null, until: Date | null): void {
    if (since) this.add((n) => `${column} >= $${n}`, since);
    if (until) this.add((n) => `${column} < $${n}`, until);
  }

  /** The rows after `position` (when given) in the order newest first by `timeColumn`, then by `seqColumn`. */
  before(timeColumn: string, seqColumn: string, position: TimePosition | null): void {
    if (position)
      this.add((n) => `(${timeColumn}, ${seqColumn}) < ($${n}, $${n + 1}::bigint)`, position.at, position.seq);
  }

  /** The where clause's text (without `where`). */
  toString(): string {
    return this.conditions.join(' and ');
  }
}
