/**
 * Rates as the reference writes them: `<count>/<unit>` (s, sec, second, m, min, minute, h, hour,
 * d, day), several joined by commas for several windows ("10/min,300/day"). `0/<unit>` blocks.
 */
export interface Rate { count: number; windowMs: number; text: string }

const UNITS: Record<string, number> = { s: 1_000, sec: 1_000, second: 1_000, m: 60_000, min: 60_000, minute: 60_000, h: 3_600_000, hour: 3_600_000, d: 86_400_000, day: 86_400_000 }
const RATE = /^(\d+)\/(s|sec|second|m|min|minute|h|hour|d|day)$/

export class RateSyntaxError extends Error { override name = 'RateSyntaxError' }

export function parseRate(text: string): Rate {
  const m = RATE.exec(text.trim())
  if (!m) throw new RateSyntaxError(`invalid rate ${JSON.stringify(text)} (expected e.g. 60/min)`)
  return { count: Number(m[1]), windowMs: UNITS[m[2]], text: text.trim() }
}

/** Several rates, tightest window first (the order in which the reference checks them). */
export function parseRates(text: string): Rate[] {
  const rates = text.split(',').map((s) => s.trim()).filter(Boolean).map(parseRate)
  if (!rates.length) throw new RateSyntaxError('no rate given')
  return rates.sort((a, b) => a.windowMs - b.windowMs)
}

export const isBlocking = (rates: readonly Rate[]) => rates.some((r) => r.count === 0)
