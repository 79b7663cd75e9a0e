// The preview's engine: the kiosk's own FlowEngine, which tells the studio every input it takes
// (a tap, a typed or spoken line, a tool the assistant called, an action's answer, time passing,
// a change of language) with the state it left the visit in. The studio lights the diagram from
// it and turns a visit into a conversation test ("keep this as a test").

import type { LoadedFlow } from '../../engine/language/loaded-flow.ts';
import { FlowEngine } from '../../engine/runtime/engine.ts';
import type { EngineInput, EngineMessage } from '../../engine/runtime/messages.ts';
import type { Clock } from '../../ports/clock.ts';
import type { ActionRun, PreviewInput } from '../preview-link.ts';

/** The action ids and tools of the actions a step asked to run. */
function runsOf(messages: readonly EngineMessage[]): ActionRun[] {
  return messages.flatMap((m) => (m.type === 'action_run' ? [{ action_id: m.action_id, tool: m.tool }] : []));
}

export class WatchedEngine extends FlowEngine {
  /** inside send(): a change of language it makes itself (set_language) is the tool call's, not an input of its own */
  private sending = false;

  constructor(
    loaded: LoadedFlow,
    private readonly clockOf: Clock,
    private readonly heard: (record: PreviewInput) => void,
  ) {
    super(loaded, clockOf);
  }

  override send(input: EngineInput | readonly EngineInput[]): EngineMessage[] {
    const outer = !this.sending;
    this.sending = true;
    let out: EngineMessage[];
    try {
      out = super.send(input);
    } finally {
      if (outer) this.sending = false;
    }
    if (outer) this.heard({ kind: 'send', input, at: this.clockOf.now(), ...this.where(), changed: out.length > 0, runs: runsOf(out) });
    return out;
  }

  override setLanguage(language: string): EngineMessage[] {
    const out = super.setLanguage(language);
    if (!this.sending && out.length) this.heard({ kind: 'language', language, at: this.clockOf.now(), ...this.where(), changed: true, runs: [] });
    return out;
  }

  private where(): { state: string; ended: boolean } {
    const view = this.view;
    return { state: view.state, ended: view.ended };
  }
}
