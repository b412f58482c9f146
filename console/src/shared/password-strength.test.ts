import { describe, expect, it } from 'vitest';
import { estimateStrength } from './password-strength';

const level = (password: string, context = {}) => estimateStrength(password, context).level;

describe('estimateStrength', () => {
  it('says too short below the API\'s 8 characters', () => {
    expect(estimateStrength('abc')).toEqual({ level: 'too-short', text: 'Too short: use at least 8 characters.' });
  });

  it('grows with length most of all, a little with a mix of kinds of character', () => {
    expect(level('plumtree')).toBe('weak');
    expect(level('plumtreeorchard')).toBe('fair');
    expect(level('plum tree orchard')).toBe('good');
    expect(level('plum tree orchard at noon')).toBe('strong');
    expect(level('Plumtr3e!')).toBe('fair');
  });

  it('calls the first guesses weak whatever their length: common bases, runs, repeats', () => {
    for (const guess of ['password', 'Password123!', 'p@ssw0rd', 'iloveyou2024', '12345678', 'qwertyuiop', '87654321', 'aaaaaaaaaaaa', 'abababababab']) {
      expect(estimateStrength(guess)).toEqual({ level: 'weak', text: 'Weak: this looks like a common password, one of the first that is guessed.' });
    }
  });

  it('calls a password with the address or the organisation in it weak, as the API\'s strict policy would refuse it', () => {
    const context = { email: 'ada.lovelace@example.com', organisation: 'Analytical Engines' };
    expect(estimateStrength('lovelace rules the world', context).text).toBe('Weak: it contains your e-mail address, which others can see.');
    expect(estimateStrength('Engines of the future', context).text).toBe('Weak: it contains the organisation\'s name, one of the first guesses.');
    expect(level('plum tree orchard at noon', context)).toBe('strong');
  });

  it('gives advice while the password is weak or fair, none once it is good', () => {
    expect(estimateStrength('plumtreeorchard').text).toBe('Fair. Longer is stronger: a few unrelated words make a good password.');
    expect(estimateStrength('plum tree orchard').text).toBe('Good.');
  });
});
