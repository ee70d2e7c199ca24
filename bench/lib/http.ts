/** A GET whose body is parsed as JSON when it is JSON; the status either way. */
export async function getJson(url: string, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: token ? { Authorization: `Token ${token}` } : {} })
  const text = await res.text()
  let body: unknown = text
  try { body = JSON.parse(text) } catch { /* not JSON */ }
  return { status: res.status, body }
}
