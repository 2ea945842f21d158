// The pipeline's share of the event loop while HTTP requests are served.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUSY_PAUSE_MS, BUSY_PIPELINE_SHARE, pipelineRestMs } from '../../src/pipeline/pacing.ts';

test('idle: no rest between pipeline steps', () => {
  assert.equal(pipelineRestMs(50, false), 0);
});

test('busy: the rest keeps the pipeline to its share of the time, never below the minimum pause', () => {
  for (const stepMs of [0.5, 3, 12, 40]) {
    const rest = pipelineRestMs(stepMs, true);
    assert.ok(rest >= BUSY_PAUSE_MS);
    if (rest > BUSY_PAUSE_MS)
      assert.ok(Math.abs(stepMs / (stepMs + rest) - BUSY_PIPELINE_SHARE) < 1e-9, `step ${stepMs} ms, rest ${rest} ms`);
    else assert.ok(stepMs / (stepMs + rest) <= BUSY_PIPELINE_SHARE + 1e-9);
  }
});
