"""An outside consumer of the public feed: follows the dockets topic from its beginning and keeps a
local copy in SQLite, resuming after a restart without losing a change.

The copy is committed to SQLite before the consumer group's offsets are committed to Kafka, so a
crash between the two replays a few events on restart; replays are harmless because an event only
replaces a row when its `version` is higher (the feed's rule: the highest version wins).

    lds consumers create alice --json > alice.json     # once: a login for the public topics
    CONSUMER_SETTINGS=alice.json SCHEMA_REGISTRY_URL=http://127.0.0.1:8081/apis/ccompat/v7 \
    TOPIC=entity.dockets STORE=dockets.sqlite python follow_dockets.py

CONSUMER_SETTINGS: the one line `lds consumers create <name> --json` printed (brokers of the
SASL/SCRAM listener, login); the consumer group is then `<name>.follow-dockets`, the groups the
login may use. Without it, KAFKA_BROKERS names a listener without login (the service's own).

EXIT_WHEN_CAUGHT_UP=1: exit once the copy holds everything the topic held (for scripts and tests;
default: follow forever).
"""
import json
import os
import signal
import sqlite3
import sys

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import MessageField, SerializationContext

SETTINGS = json.load(open(os.environ["CONSUMER_SETTINGS"])) if os.environ.get("CONSUMER_SETTINGS") else None
BROKERS = ",".join(SETTINGS["brokers"]) if SETTINGS else os.environ.get("KAFKA_BROKERS", "127.0.0.1:9092")
REGISTRY_URL = os.environ.get("SCHEMA_REGISTRY_URL", "http://127.0.0.1:8081/apis/ccompat/v7")
TOPIC = os.environ.get("TOPIC", "entity.dockets")
STORE = os.environ.get("STORE", "dockets.sqlite")
GROUP = os.environ.get("CONSUMER_GROUP", f"{SETTINGS['sasl']['username']}.follow-dockets" if SETTINGS else "example-follow-dockets")
EXIT_WHEN_CAUGHT_UP = os.environ.get("EXIT_WHEN_CAUGHT_UP") == "1"

# Deleted dockets keep their row and version, so an older replayed upsert cannot revive them.
SCHEMA = """
CREATE TABLE IF NOT EXISTS dockets (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  entity TEXT
)
"""
UPSERT = """
INSERT INTO dockets (id, version, deleted, entity) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, deleted = excluded.deleted, entity = excluded.entity
WHERE excluded.version > dockets.version
"""


def caught_up(consumer: Consumer) -> bool:
    """Every partition's committed offset has reached its end: the saved copy holds the whole topic."""
    try:
        partitions = consumer.list_topics(TOPIC, timeout=10).topics[TOPIC].partitions
        committed = consumer.committed([TopicPartition(TOPIC, p) for p in partitions], timeout=10)
        for tp in committed:
            low, high = consumer.get_watermark_offsets(tp, timeout=10)
            if high != low and tp.offset < high:
                return False
    except KafkaException as err:
        if err.args[0].retriable() or err.args[0].code() == KafkaError._TIMED_OUT:
            return False  # a busy broker did not answer in time: not known yet, asked again after the next poll
        raise
    return True


def main() -> None:
    db = sqlite3.connect(STORE)
    db.execute(SCHEMA)
    deserialize = AvroDeserializer(SchemaRegistryClient({"url": REGISTRY_URL}))
    login = {
        "security.protocol": "SASL_SSL" if SETTINGS["ssl"] else "SASL_PLAINTEXT",
        "sasl.mechanisms": SETTINGS["sasl"]["mechanism"].upper(),
        "sasl.username": SETTINGS["sasl"]["username"],
        "sasl.password": SETTINGS["sasl"]["password"],
    } if SETTINGS else {}
    consumer = Consumer({
        "bootstrap.servers": BROKERS,
        "group.id": GROUP,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        **login,
    })
    consumer.subscribe([TOPIC])
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    applied = 0
    try:
        while not stopping:
            messages = consumer.consume(num_messages=500, timeout=0.5)
            if not messages:
                if EXIT_WHEN_CAUGHT_UP and caught_up(consumer):
                    break
                continue
            with db:  # one transaction per batch: the copy moves as a whole or not at all
                for message in messages:
                    if message.error():
                        raise RuntimeError(message.error())
                    event = deserialize(message.value(), SerializationContext(message.topic(), MessageField.VALUE))
                    deleted = event["op"] == "delete"
                    entity = None if deleted else json.dumps(event["entity"], default=str)
                    cursor = db.execute(UPSERT, (event["key"], event["version"], int(deleted), entity))
                    applied += cursor.rowcount
            consumer.commit(asynchronous=False)
            held = db.execute("SELECT count(*) FROM dockets").fetchone()[0]
            print(f"follow_dockets: {applied} changes applied, {held} dockets held", file=sys.stderr, flush=True)
    finally:
        consumer.close()
        db.close()


if __name__ == "__main__":
    main()
