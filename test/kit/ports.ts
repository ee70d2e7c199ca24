/** Free TCP ports for servers a test or benchmark starts itself (get-port: checked, and not handed out twice in this process). */
import getPort from 'get-port'

/** A port free on the loopback interface. */
export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' })
}
