/**
 * The audio role's benchmark:
 *   npx tsx bench/audio.ts [--quick] [--files N] [--seconds S] [--rounds R]
 *
 * N speech-like originals of S seconds (44.1 kHz WAV, as the sample makes them) are made into the
 * spec's MP3 two ways, each with LDS_AUDIO_CONCURRENCY (default: cores) files at once:
 * 1. ffmpeg alone: the same ffmpeg command the role runs (same settings, tags and pictures), the peer;
 * 2. the role's work per record (streams/audio/convert.ts): SHA-1 of the original, the same
 *    ffmpeg run, ffprobe of the output (its duration), rename into place.
 * Reported: minutes of audio per wall-clock minute for each and their ratio (goal ≥ 0.9), and CPU
 * seconds (this process and its children) per minute of audio. Rounds alternate the two; the best
 * round of each counts. Kafka and the record's publication are not in it (one small message per
 * record). The table goes to stdout and .data/bench/audio.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, availableParallelism } from 'node:os'
import path from 'node:path'
import pMap from 'p-map'
import { PROJECT_ROOT } from '../core/config.js'
import { ensureFfmpeg } from '../infra/debian.js'
import { speechLikeArgs } from '../connectors/sample/originals.js'
import { createArtStore } from '../streams/audio/art.js'
import { convert } from '../streams/audio/convert.js'
import { run, transcodeArgs } from '../streams/audio/ffmpeg.js'
import { createRemoteFileFetcher } from '../clients/remote-file.js'
import { audioTags } from '../domain/audio/tags.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/audio.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  files: { type: 'number', default: quick ? 2 : 8, help: 'originals' },
  seconds: { type: 'number', default: quick ? 300 : 1800, help: 'length of each original (oral arguments run 30 to 60 minutes)' },
  rounds: { type: 'number', default: quick ? 2 : 3, help: 'rounds of each way' },
}))
const concurrency = Number(process.env.LDS_AUDIO_CONCURRENCY) || availableParallelism()

/** CPU seconds of this process and its waited-for children (/proc/self/stat utime, stime, cutime, cstime). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0)
  return ticks / 100
}

const tools = await ensureFfmpeg()
const dir = mkdtempSync(path.join(tmpdir(), 'lds-bench-audio-'))
try {
  console.log(`making ${flags.files} originals of ${flags.seconds} s …`)
  mkdirSync(path.join(dir, 'originals'))
  const originals = Array.from({ length: flags.files }, (_, i) => `originals/argument-${i}.wav`)
  await pMap(originals, (o, i) => run(tools.ffmpeg, speechLikeArgs(flags.seconds, 100 + 15 * i, path.join(dir, o)), 10 * 60_000), { concurrency })
  const art = createArtStore({ storageDir: dir, publisher: 'Legal Data Service' })
  const facts = (i: number) => ({ id: i, caseName: `Party ${i} v. Other ${i}`, courtName: 'Court of Appeals for the Ninth Circuit', courtId: 'ca9', dateArgued: '2024-03-05', docketNumber: `23-${i}`, recordUrl: `http://127.0.0.1:8000/audio/${i}/case/` })
  const [seal, logo] = [await art.seal('ca9', 'Court of Appeals for the Ninth Circuit'), await art.logo()]
  const fetcher = createRemoteFileFetcher()
  const audioMinutes = (flags.files * flags.seconds) / 60

  const ways: Record<string, (round: number) => Promise<void>> = {
    'ffmpeg alone': async (round) => {
      await pMap(originals, (o, i) => run(tools.ffmpeg, transcodeArgs(path.join(dir, o), path.join(dir, `peer-${round}-${i}.mp3`), audioTags(facts(i)), { seal, logo }), 10 * 60_000), { concurrency })
    },
    'audio role': async (round) => {
      await pMap(originals, (o, i) => convert({ tools, fetcher, art, storageDir: dir, transcodeTimeoutMs: 10 * 60_000 }, {
        record: { id: i, local_path_original_file: o }, courtId: 'ca9', courtName: 'Court of Appeals for the Ninth Circuit',
        tags: audioTags(facts(i)), mp3Path: `mp3/2024/03/05/round_${round}_${i}.mp3`,
      }), { concurrency })
    },
  }
  const best: Record<string, { wall: number; cpu: number }> = {}
  for (let round = 0; round < flags.rounds; round++) {
    for (const [name, way] of Object.entries(ways)) {
      const wall0 = performance.now()
      const cpu0 = cpuSeconds()
      await way(round)
      const m = { wall: (performance.now() - wall0) / 1000, cpu: cpuSeconds() - cpu0 }
      console.log(`  round ${round + 1} ${name}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU`)
      if (!best[name] || m.wall < best[name].wall) best[name] = m
    }
  }
  await fetcher.close()
  const rows = Object.entries(best).map(([name, m]) => ({
    way: name, audioMinutesPerMinute: audioMinutes / (m.wall / 60), cpuSecondsPerAudioMinute: m.cpu / audioMinutes,
  }))
  const ratio = rows[1].audioMinutesPerMinute / rows[0].audioMinutesPerMinute
  const cpuRatio = rows[0].cpuSecondsPerAudioMinute / rows[1].cpuSecondsPerAudioMinute
  console.log(`\n${flags.files} originals × ${flags.seconds} s, ${concurrency} at once, best of ${flags.rounds} rounds`)
  console.log('| way | audio minutes per wall minute | CPU s per audio minute |')
  console.log('|---|---|---|')
  for (const r of rows) console.log(`| ${r.way} | ${r.audioMinutesPerMinute.toFixed(1)} | ${r.cpuSecondsPerAudioMinute.toFixed(3)} |`)
  console.log(`ratio (audio role / ffmpeg alone): ${ratio.toFixed(2)} by wall time, ${cpuRatio.toFixed(2)} by CPU (goal ≥ 0.9)`)
  const out = path.join(PROJECT_ROOT, '.data', 'bench')
  mkdirSync(out, { recursive: true })
  writeFileSync(path.join(out, 'audio.json'), JSON.stringify({ files: flags.files, seconds: flags.seconds, concurrency, rows, ratio, cpuRatio }, null, 2))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
