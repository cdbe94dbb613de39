import { invalid } from '../control/control-error.js';

/**
 * Reading a control call's JSON body: an object with only the members it names, each checked,
 * every refusal a 400 naming the member.
 */
export class ControlBody {
  private constructor(private readonly members: Record<string, unknown>) {}

  /** `allowed` lists every member the call accepts; anything else is refused. */
  static of(body: unknown, allowed: readonly string[]): ControlBody {
    const members = body ?? {};
    if (typeof members !== 'object' || Array.isArray(members)) {
      throw invalid('body', 'the body must be a JSON object');
    }
    const unknown = Object.keys(members).find((name) => !allowed.includes(name));
    if (unknown !== undefined)
      throw invalid(
        unknown,
        `${unknown} is not a member of this call (allowed: ${allowed.join(', ') || 'none'})`,
      );
    return new ControlBody(members as Record<string, unknown>);
  }

  has(name: string): boolean {
    return this.members[name] !== undefined;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const value = this.members[name];
    if (value === undefined) throw invalid(name, `${name} is required`);
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      throw invalid(name, `${name} must be one of ${values.join(', ')}`);
    }
    return value as T;
  }

  string(name: string, pattern: RegExp, description: string): string {
    const value = this.members[name];
    if (value === undefined) throw invalid(name, `${name} is required`);
    if (typeof value !== 'string') throw invalid(name, `${name} must be a string`);
    if (!pattern.test(value)) throw invalid(name, `${name} must be ${description}`);
    return value;
  }

  optionalString(name: string, pattern: RegExp, description: string): string | undefined {
    return this.has(name) ? this.string(name, pattern, description) : undefined;
  }

  /** 1 to `maxLength` characters of printable text: no control characters. */
  text(name: string, maxLength: number): string {
    const value = this.members[name];
    if (value === undefined) throw invalid(name, `${name} is required`);
    if (typeof value !== 'string') throw invalid(name, `${name} must be a string`);
    if (value.length < 1 || value.length > maxLength || [...value].some((character) => character < ' ')) {
      throw invalid(name, `${name} must be 1 to ${maxLength} characters, no control characters`);
    }
    return value;
  }

  optionalText(name: string, maxLength: number): string | undefined {
    return this.has(name) ? this.text(name, maxLength) : undefined;
  }

  number(name: string, min: number, max: number): number {
    const value = this.members[name];
    if (value === undefined) throw invalid(name, `${name} is required`);
    if (typeof value !== 'number' || !(value >= min && value <= max)) {
      throw invalid(name, `${name} must be a number between ${min} and ${max}`);
    }
    return value;
  }

  optionalNumber(name: string, min: number, max: number): number | undefined {
    return this.has(name) ? this.number(name, min, max) : undefined;
  }

  literalTrue(name: string): boolean {
    if (!this.has(name)) return false;
    if (this.members[name] !== true) throw invalid(name, `${name} must be true`);
    return true;
  }

  optionalObject(name: string): ControlBody | null | undefined {
    if (!this.has(name)) return undefined;
    const value = this.members[name];
    if (value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalid(name, `${name} must be an object or null`);
    return new ControlBody(value as Record<string, unknown>);
  }

  /** Refuses members of a nested object other than `allowed`, naming them as `parent.member`. */
  only(parent: string, allowed: readonly string[]): this {
    const unknown = Object.keys(this.members).find((name) => !allowed.includes(name));
    if (unknown !== undefined)
      throw invalid(`${parent}.${unknown}`, `${parent}.${unknown} is not a member of ${parent}`);
    return this;
  }
}
