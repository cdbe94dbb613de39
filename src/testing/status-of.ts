/**
 * The status of a request whose body the test does not need, read whole anyway: a body left unread
 * holds its connection open, not reading, until the Jest worker ends.
 */
export async function statusOf(url: string, init?: RequestInit): Promise<number> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.status;
}
