// State kept per database connection: made once per connection, never shared between two, and
// dropped by forgetConnection.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { forgetConnection, perConnection, type ConnectionSlotName } from '../../src/db/per-connection.ts';
import { prepare } from '../../src/db/statements.ts';

// Slot names are the list in src/db/per-connection.ts; these tests make slots of their own.
let made = 0;
const counter = perConnection('test: counter' as ConnectionSlotName, () => ({ id: ++made }));

test('a connection gets its state made once, on first use, and the same object after', () => {
  const db = new Database(':memory:');
  assert.equal(counter.peek(db), undefined);
  const first = counter(db);
  assert.equal(counter(db), first);
  assert.equal(counter.peek(db), first);
  assert.equal(made, first.id);
  db.close();
});

test('two connections share nothing', () => {
  const a = new Database(':memory:');
  const b = new Database(':memory:');
  assert.notEqual(counter(a), counter(b));
  assert.notEqual(counter(a).id, counter(b).id);
  a.close();
  b.close();
});

test('forgetConnection drops every slot of that connection and no other', () => {
  const a = new Database(':memory:');
  const b = new Database(':memory:');
  const ofA = counter(a);
  const ofB = counter(b);
  const statement = prepare(a, 'SELECT 1');
  assert.equal(prepare(a, 'SELECT 1'), statement, 'a statement is compiled once per connection');
  forgetConnection(a);
  assert.equal(counter.peek(a), undefined);
  assert.notEqual(counter(a), ofA);
  assert.notEqual(prepare(a, 'SELECT 1'), statement, 'the statement cache is a slot too');
  assert.equal(counter(b), ofB);
  a.close();
  b.close();
});

test('a slot has one owner: a second slot of the same name is refused', () => {
  assert.throws(() => perConnection('test: counter' as ConnectionSlotName, () => 0), /has an owner already/);
  assert.throws(() => perConnection('prepared statements', () => 0), /has an owner already/);
});
