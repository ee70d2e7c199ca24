/**
 * The AsyncAPI document names the listener outside consumers use: a second server on the SASL
 * port with a SCRAM-SHA-512 security scheme, still valid AsyncAPI 3.0.
 */
import t from 'tap'
import { Parser } from '@asyncapi/parser'
import { AvroSchemaParser } from '@asyncapi/avro-schema-parser'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { toAsyncApi } from '../../../schemas/asyncapi.js'

const opts = { brokers: ['kafka.test:9092'], schemaRegistryUrl: 'http://registry.test/apis/ccompat/v7', topicPrefix: 'p1.', partitions: 4, saslPort: 9094 }

t.test('a SASL/SCRAM server beside the internal one, valid AsyncAPI 3.0', async (t) => {
  const parser = new Parser()
  parser.registerSchemaParser(AvroSchemaParser())
  const { document, diagnostics } = await parser.parse(JSON.stringify(toAsyncApi(catalogue, opts)))
  t.same(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`), [], 'no error diagnostics')
  const sasl = document!.servers().get('kafka-sasl')!
  t.equal(sasl.host(), 'kafka.test:9094')
  t.same(sasl.security().map((req) => req.all().map((s) => s.scheme().type())), [['scramSha512']])
})
