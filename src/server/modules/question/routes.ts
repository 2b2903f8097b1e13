// Question categories and their questions. A question's correct answer must be one of its options.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { questionCategories, questions } from '../../db/schema/master-data';
import { validationError } from '../../plugins/errors';
import { registerResource } from '../../resources/register';
import { question } from '../../../shared/resources/question';
import { questionCategory } from '../../../shared/resources/question-category';

export function registerQuestionRoutes(app: FastifyInstance) {
  registerResource(app, {
    definition: questionCategory,
    table: questionCategories,
    unique: ['name'],
    computed: {
      // Spelled out: drizzle leaves columns unqualified in a select list, which would bind both to the subquery.
      questions_count: sql<number>`(select count(*)::int from "questions" q where q."question_category_id" = "question_categories"."id")`,
    },
  });
  registerResource(app, {
    definition: question,
    table: questions,
    beforeCreate: (values) => checkCorrectAnswer(values),
    // A partial update is checked against the options it leaves in place.
    beforeUpdate: (values, existing) => checkCorrectAnswer({ options: existing.options, correct_answer: existing.correct_answer, ...values }, values),
  });
}

/** The correct answer is one of the options, and no option is offered twice. */
function checkCorrectAnswer(merged: Record<string, unknown>, values: Record<string, unknown> = merged) {
  const options = merged.options as string[];
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) {
    throw validationError({ options: 'The options must be different from each other.' });
  }
  if (!options.includes(merged.correct_answer as string)) {
    throw validationError({ correct_answer: 'The correct answer must be one of the options.' });
  }
  return values;
}
