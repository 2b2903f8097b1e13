// The skill levels an assessment draws from (issue 12) and how an attempt's answers are scored.
import type { AttemptScores } from '../../db/schema/assessments';
import { skillLevels } from '../../../shared/resources/question';

/** The skill levels of questions_per_level, as its keys. */
export const LEVELS = ['1', '2', '3'] as const;

export const levelLabel = (level: number) => String(skillLevels.find((option) => option.value === level)?.label ?? level);

/** Scores a list of answered questions overall, per category and per skill level. */
export function scoreAnswers(rows: readonly { question_category_id: number; category_name: string; skill_level: number; answer: string | null; correct_answer: string }[]): AttemptScores {
  const categories = new Map<number, AttemptScores['by_category'][number]>();
  const levels = new Map<number, AttemptScores['by_skill_level'][number]>();
  let correct = 0;
  for (const row of rows) {
    const isCorrect = row.answer !== null && row.answer === row.correct_answer;
    if (isCorrect) correct += 1;
    const category = categories.get(row.question_category_id) ?? { question_category_id: row.question_category_id, name: row.category_name, correct: 0, total: 0 };
    category.total += 1; category.correct += isCorrect ? 1 : 0;
    categories.set(row.question_category_id, category);
    const level = levels.get(row.skill_level) ?? { skill_level: row.skill_level, label: levelLabel(row.skill_level), correct: 0, total: 0 };
    level.total += 1; level.correct += isCorrect ? 1 : 0;
    levels.set(row.skill_level, level);
  }
  return {
    overall: { correct, total: rows.length, percent: rows.length ? Math.round((correct / rows.length) * 1000) / 10 : 0 },
    by_category: [...categories.values()].sort((a, b) => a.name.localeCompare(b.name)),
    by_skill_level: [...levels.values()].sort((a, b) => a.skill_level - b.skill_level),
  };
}
