/**
 * JSON text known to encode a `T`, sent as it is instead of being parsed and serialised again:
 * list pages arrive from PostgreSQL already rendered. `T` is what the text decodes to, for the
 * reader and for {@link JsonText.parse}; nothing checks it at run time.
 *
 * Composites keep their pieces and join them once, when the text is read: a page of 100 items
 * is a few hundred kilobytes, and each intermediate copy of it would be garbage for the old
 * generation of the heap.
 */
export class JsonText<T> {
  declare private readonly decodesTo: T;
  private joined: string | undefined;
  private encoded: Buffer | undefined;

  private constructor(private readonly pieces: readonly string[]) {}

  static of<T>(text: string): JsonText<T> {
    return new JsonText([text]);
  }

  /** The elements' texts as one JSON array. */
  static array<E>(elements: ReadonlyArray<JsonText<E>>): JsonText<E[]> {
    const pieces = ['['];
    elements.forEach((element, index) => {
      if (index > 0) pieces.push(',');
      pieces.push(...element.pieces);
    });
    pieces.push(']');
    return new JsonText(pieces);
  }

  /** An object of these members, in this order; a member that is `JsonText` is inserted as it is. */
  static object<O extends object>(members: { [K in keyof O]: O[K] | JsonText<O[K]> }): JsonText<O> {
    const pieces = ['{'];
    Object.entries(members).forEach(([name, value], index) => {
      pieces.push(`${index > 0 ? ',' : ''}${JSON.stringify(name)}:`);
      if (value instanceof JsonText) pieces.push(...value.pieces);
      else pieces.push(JSON.stringify(value));
    });
    pieces.push('}');
    return new JsonText(pieces);
  }

  get text(): string {
    this.joined ??= this.pieces.join('');
    return this.joined;
  }

  /**
   * The text as UTF-8, encoded once: what is hashed for an ETag and written to the socket, so
   * neither encodes it again.
   */
  get bytes(): Buffer {
    this.encoded ??= Buffer.from(this.text);
    return this.encoded;
  }

  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
