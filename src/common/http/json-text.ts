/**
 * Leads a digest in a fingerprint. JSON text never holds an unescaped control character, so a
 * digest is never taken for text.
 */
const DIGEST_MARK = '\u0000';

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

  /** `marks` has one entry per piece: the piece's digest behind {@link DIGEST_MARK}, or the piece. */
  private constructor(
    private readonly pieces: readonly string[],
    private readonly marks: readonly string[],
  ) {}

  /**
   * `digest`, when given, is a digest of `text` kept beside it (list items carry one from the
   * database), which {@link fingerprint} takes in place of the text.
   */
  static of<T>(text: string, digest?: string): JsonText<T> {
    return new JsonText([text], [digest === undefined ? text : DIGEST_MARK + digest]);
  }

  /** The elements' texts as one JSON array. */
  static array<E>(elements: ReadonlyArray<JsonText<E>>): JsonText<E[]> {
    return JsonText.joining([
      '[',
      ...elements.flatMap((element, index) => (index > 0 ? [',', element] : [element])),
      ']',
    ]);
  }

  /**
   * A JSON array of elements whose texts arrive joined by commas already (PostgreSQL's
   * `string_agg`); empty for none. Kept as a piece between the brackets rather than concatenated,
   * which would copy it once more when the page is encoded.
   */
  static arrayOfJoined<E>(joinedElements: string): JsonText<E[]> {
    return JsonText.joining(['[', joinedElements, ']']);
  }

  /** An object of these members, in this order; a member that is `JsonText` is inserted as it is. */
  static object<O extends object>(members: { [K in keyof O]: O[K] | JsonText<O[K]> }): JsonText<O> {
    const parts = Object.entries(members).flatMap(([name, value], index) => [
      `${index > 0 ? ',' : ''}${JSON.stringify(name)}:`,
      value instanceof JsonText ? value : JSON.stringify(value),
    ]);
    return JsonText.joining(['{', ...parts, '}']);
  }

  /** Literal JSON texts and JsonTexts, in order, as one JsonText that keeps their pieces. */
  private static joining<T>(parts: ReadonlyArray<string | JsonText<unknown>>): JsonText<T> {
    const pieces: string[] = [];
    const marks: string[] = [];
    for (const part of parts) {
      if (typeof part === 'string') {
        pieces.push(part);
        marks.push(part);
      } else {
        pieces.push(...part.pieces);
        marks.push(...part.marks);
      }
    }
    return new JsonText(pieces, marks);
  }

  get text(): string {
    this.joined ??= this.pieces.join('');
    return this.joined;
  }

  /**
   * The text as UTF-8, encoded once: what is written to the socket, so that it is not encoded
   * again. Each piece is encoded in place into one buffer, without joining them into a string
   * first: a page's joined text was a quarter of the heap a list request allocated, garbage the
   * young generation had to collect.
   */
  get bytes(): Buffer {
    this.encoded ??= encodePieces(this.pieces);
    return this.encoded;
  }

  /**
   * The text with every digested piece replaced by its digest: equal for equal texts built alike,
   * and different for texts that differ (but for a collision of the digest). What an entity tag
   * hashes: a few kilobytes for a page of 100 items instead of its few hundred. Without digests
   * it is the text itself.
   */
  get fingerprint(): string {
    return this.marks.join('');
  }

  parse(): T {
    return JSON.parse(this.text) as T;
  }
}

/** The pieces' UTF-8 bytes, one after the other, in one buffer of exactly their length. */
function encodePieces(pieces: readonly string[]): Buffer {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let written = 0;
  for (const piece of pieces) written += bytes.write(piece, written);
  return bytes;
}
