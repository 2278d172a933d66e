// The saved-view / `sessions list --where` filter language (contract section 6).
export { FilterError, formatFilterError } from './lexer.js';
export { parseFilter, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH } from './parser.js';
export type { CompareOp, FilterNode, FilterValue } from './node.js';
export { matchesFilter, type FilterSubject } from './evaluate.js';
export { createFilterCache } from './cache.js';
