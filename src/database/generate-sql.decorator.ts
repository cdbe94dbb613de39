/**
 * Declares, on a repository method, the calls whose SQL `src/queries/sql-snapshot.integration-spec.ts`
 * records in `src/queries/<class>.sql`, so that a change of SQL shows in review. Every public method
 * of a repository declares its statements or says why it sends none; the spec fails otherwise.
 */

/** Stands, in an example's arguments, for a transaction the snapshot opens for the call. */
export const IN_TRANSACTION = Symbol('a transaction of the snapshot');

/**
 * Values the snapshot's database holds, for examples that must name a row (an owner, a user):
 * the spec inserts them before the first call.
 */
export const DummyValue = {
  /** Of no row: statements that find nothing look the same. */
  UUID: '00000000-0000-4000-8000-000000000000',
  USER_ID: '00000000-0000-4000-8000-000000000001',
  USERNAME: 'snapshot-user',
  CUSTOMER_ID: 'acme',
  OTHER_CUSTOMER_ID: 'globex',
  NUMERO: 'IMP-1',
  INSTANT: new Date('2026-03-01T06:00:00Z'),
} as const;

export interface SqlExample {
  /** What the call shows, as the snapshot's heading says it. */
  name: string;
  /** The call's arguments; {@link IN_TRANSACTION} for a transaction the method takes. */
  params: readonly unknown[];
}

export type SqlDeclaration =
  { sends: 'statements'; examples: readonly SqlExample[] } | { sends: 'nothing'; reason: string };

const declarations = new WeakMap<object, Map<string, SqlDeclaration>>();

function declare(declaration: SqlDeclaration): MethodDecorator {
  return (prototype, method) => {
    const ofClass = declarations.get(prototype) ?? new Map<string, SqlDeclaration>();
    ofClass.set(String(method), declaration);
    declarations.set(prototype, ofClass);
  };
}

/** The method's statements, recorded once per example, in order. */
export function GenerateSql(...examples: [SqlExample, ...SqlExample[]]): MethodDecorator {
  return declare({ sends: 'statements', examples });
}

/** A public method of a repository that sends no SQL of its own. */
export function NotAStatement(reason: string): MethodDecorator {
  return declare({ sends: 'nothing', reason });
}

/** The declarations of a class's methods, by method name (empty when it declares none). */
export function sqlDeclarationsOf(
  type: abstract new (...args: never[]) => unknown,
): Map<string, SqlDeclaration> {
  return declarations.get(type.prototype as object) ?? new Map<string, SqlDeclaration>();
}
