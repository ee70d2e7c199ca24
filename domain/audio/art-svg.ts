/**
 * The art generated when none is configured, as SVG (rendered to PNG by the audio role): a court's
 * seal is its name around a circle with its short id in the middle; the publisher's logo is the
 * publisher's name in a roundel.
 */

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** Text on a circle, the inner ring and the centre label, on a 600-pixel square. */
function roundel(ringText: string, centre: string, colours: { field: string; ink: string; accent: string }): string {
  // The ring text shrinks with its length so it fits once around.
  const size = Math.max(14, Math.min(40, Math.floor(1300 / Math.max(ringText.length, 1))))
  const centreSize = Math.max(28, Math.min(110, Math.floor(420 / Math.max(centre.length, 1))))
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">
<defs><path id="ring" d="M300,300 m-230,0 a230,230 0 1,1 460,0 a230,230 0 1,1 -460,0"/></defs>
<circle cx="300" cy="300" r="295" fill="${colours.field}"/>
<circle cx="300" cy="300" r="285" fill="none" stroke="${colours.accent}" stroke-width="6"/>
<circle cx="300" cy="300" r="190" fill="none" stroke="${colours.accent}" stroke-width="8"/>
<text font-family="DejaVu Serif, serif" font-size="${size}" fill="${colours.ink}" letter-spacing="1"><textPath href="#ring">${escapeXml(ringText)}</textPath></text>
<text x="300" y="300" dominant-baseline="central" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${centreSize}" fill="${colours.accent}">${escapeXml(centre)}</text>
</svg>`
}

export function sealSvg(courtName: string, courtId: string): string {
  return roundel(`${courtName} ★`, courtId.toUpperCase(), { field: '#1b3a5c', ink: '#ffffff', accent: '#d4af37' })
}

export function logoSvg(publisher: string): string {
  return roundel(`${publisher} · oral arguments ·`, 'LDS', { field: '#ffffff', ink: '#1b3a5c', accent: '#8b1e2d' })
}
