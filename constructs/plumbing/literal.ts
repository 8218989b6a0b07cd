/**
 * Text that Terraform must read literally. In its JSON syntax every string is a template, so a label or an image URL
 * that holds `${` or `%{` would be read as one; these escape the openers.
 */
import { stringify } from 'yaml';

/** `value` as a string Terraform reads literally in its JSON syntax: its template openers (`${`, `%{`) escaped. */
export function templateLiteral(value: string): string {
  return value.replace(/\$\{/g, '$$${').replace(/%\{/g, '%%{');
}

/**
 * An object that holds no Terraform reference as a `yaml_body`: YAML, read literally (a label or an image URL may
 * hold `${` or `%{`, which Terraform would read as a template).
 */
export function literalYaml(object: unknown): string {
  return templateLiteral(stringify(object, { lineWidth: 0 }));
}
