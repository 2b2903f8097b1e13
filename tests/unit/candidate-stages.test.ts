// The hiring stages' pure rules (issue 12): time spent per stage from the history, durations as
// people read them, and where a board move takes a card (a reopen goes back to the stage it left).
import { describe, expect, it } from 'vitest';
import {
  BOARD_STAGES, candidate, durationText, moveTransitionName, stageTimes, transitionTarget,
} from '../../src/shared/resources/candidate';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();

describe('time in each stage', () => {
  it('adds up each visit to a stage, the current one counting until now, in hiring order', () => {
    const history = [
      { to: 'Screening', created_at: at(0) },
      { to: 'Interview', created_at: at(60) },
      { to: 'Rejected', created_at: at(180) },
      { to: 'Interview', created_at: at(1620) },
    ];
    expect(stageTimes(history, new Date(at(1680)))).toEqual([
      { stage: 'Screening', ms: 60 * 60_000, visits: 1, isCurrent: false },
      { stage: 'Interview', ms: (120 + 60) * 60_000, visits: 2, isCurrent: true },
      { stage: 'Rejected', ms: 1440 * 60_000, visits: 1, isCurrent: false },
    ]);
  });

  it('is empty without history', () => {
    expect(stageTimes([], new Date())).toEqual([]);
  });
});

describe('durations', () => {
  it.each([
    [30_000, 'under a minute'], [12 * 60_000, '12 min'], [60 * 60_000, '1 h'], [(5 * 60 + 20) * 60_000, '5 h 20 min'],
    [(3 * 1440 + 4 * 60 + 59) * 60_000, '3 d 4 h'], [2 * 1440 * 60_000, '2 d'],
  ])('%d ms reads %s', (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });
});

describe('the stage workflow', () => {
  it('moves forward one stage at a time, rejects before Onboarding, and reopens to the stage left', () => {
    const { transitions } = candidate.workflow!;
    expect(transitions.filter((t) => t.name.startsWith('move-to-')).map((t) => `${t.from.join()}>${t.to}`)).toEqual([
      'Screening>Interview', 'Interview>Client Interview', 'Client Interview>Cost Negotiations', 'Cost Negotiations>Background Check',
      'Background Check>Offer Letter Review', 'Offer Letter Review>Onboarding',
    ]);
    expect(transitions.find((t) => t.name === 'reject')).toMatchObject({ to: 'Rejected', comment: 'required' });
    expect(transitions.find((t) => t.name === 'reject')!.from).not.toContain('Onboarding');
    expect(BOARD_STAGES).toEqual(['Screening', 'Interview', 'Client Interview', 'Cost Negotiations', 'Background Check', 'Offer Letter Review', 'Onboarding', 'Rejected']);
  });

  it('names where a board move lands', () => {
    expect(transitionTarget(moveTransitionName('Client Interview'), {})).toBe('Client Interview');
    expect(transitionTarget('reject', {})).toBe('Rejected');
    expect(transitionTarget('reopen', { previous_stage: 'Cost Negotiations' })).toBe('Cost Negotiations');
    expect(transitionTarget('unknown', {})).toBeNull();
  });
});
