const transitions = { idle: { start: 'running' }, running: { pause: 'paused', stop: 'idle' }, paused: { resume: 'running', stop: 'idle' } };
function* machine(events) {
  let state = 'idle';
  for (const ev of events) {
    const next = transitions[state]?.[ev];
    if (!next) { yield `${state} ignores ${ev}`; continue; }
    state = next;
    yield state;
  }
  return state;
}
const trace = [...machine(['start', 'pause', 'start', 'resume', 'stop', 'stop'])];
const upper = await tools.string.upper({ text: trace.join(' > ') });
return upper.text;
