// Lint: TypeScript's recommended rules plus the house rules of STYLE.md (no `any`,
// no non-null assertions, type-only imports).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.data-test/', '**/dist/', 'coverage/', 'migrations/', 'extensions/*/generated/', 'extensions/gift-embed/assets/', 'app/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Files that fit in a head (issue 24): generated files are ignored above.
      'max-lines': ['error', { max: 300 }],
    },
  },
  {
    files: ['test/**', 'packages/*/test/**', 'packages/*/bench/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
