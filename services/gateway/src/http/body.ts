// Decoding of JSON request bodies: types are checked here (400 with the field), business rules in
// the services. `null` means "not given"; unknown fields are ignored (CONTRACTS 1).
import type { Request } from 'express';
import { AppError, type FieldError } from '@switchboard/platform';

export class Body {
  readonly errors: FieldError[] = [];
  private readonly obj: Record<string, unknown>;

  constructor(req: Request) {
    const b: unknown = req.body;
    if (b === null || typeof b !== 'object' || Array.isArray(b)) {
      throw AppError.invalid([{ field: '(body)', message: 'must be a JSON object' }]);
    }
    this.obj = b as Record<string, unknown>;
  }

  private raw(field: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.obj, field) ? this.obj[field] : undefined;
  }

  string(field: string, max = 8192): string | undefined {
    const v = this.raw(field);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      this.errors.push({ field, message: 'must be a string' });
      return undefined;
    }
    if (v.length > max) {
      this.errors.push({ field, message: `must be at most ${max} characters` });
      return undefined;
    }
    return v;
  }

  boolean(field: string): boolean | undefined {
    const v = this.raw(field);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.errors.push({ field, message: 'must be true or false' });
      return undefined;
    }
    return v;
  }

  object(field: string): Record<string, unknown> | undefined {
    const v = this.raw(field);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.errors.push({ field, message: 'must be a JSON object' });
      return undefined;
    }
    return v as Record<string, unknown>;
  }

  /** Environment as a numeric id (number or digit string) or an environment URL (SPEC 2.1). */
  environmentId(field: string): string | undefined {
    const v = this.raw(field);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v);
    if (typeof v === 'string') {
      const s = v.trim();
      if (/^\d{1,18}$/.test(s) && Number(s) > 0) return String(Number(s));
      const m = /^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?\/environments\/(\d{1,18})\/?$/.exec(s);
      if (m?.[1] && Number(m[1]) > 0) return String(Number(m[1]));
    }
    this.errors.push({ field, message: 'must be an environment id or an environment URL' });
    return undefined;
  }

  /** Throws a 400 listing every field error found so far. */
  check(): void {
    if (this.errors.length > 0) throw AppError.invalid(this.errors);
  }
}
