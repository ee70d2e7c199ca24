import t from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { COMPILED, PROJECT_ROOT, programArgs, programFile, projectFile } from '../../../core/programs.js'

t.test('the project root is found from the sources and from dist/ alike', async (t) => {
  const pkg = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { name: string }
  t.equal(pkg.name, 'legal-data-service', 'package.json at the root')
  t.ok(existsSync(projectFile('data', 'courts', 'courts.json')), 'the data sets beside it')
  t.notMatch(PROJECT_ROOT, /\/dist$/, 'never the compiled folder')
})

t.test('a program starts from the tree the caller runs from', async (t) => {
  const file = programFile('bin/lds-cli.ts')
  t.ok(existsSync(file), `${file} exists`)
  t.match(file, COMPILED ? /\/dist\/bin\/lds-cli\.js$/ : /\/bin\/lds-cli\.ts$/)
  const args = programArgs('bin/lds-cli.ts', ['--help'], ['--no-warnings'])
  t.same(args.slice(-3), ['--no-warnings', file, '--help'], 'node options, then the program, then its arguments')
  t.equal(args.includes('tsx'), !COMPILED, 'tsx loads only the TypeScript sources')
  // The program really runs with those arguments (its help names the command).
  const help = execFileSync(process.execPath, programArgs('bin/lds-cli.ts', ['--help']), { cwd: PROJECT_ROOT, encoding: 'utf8' })
  t.match(help, /Usage: lds/)
})
