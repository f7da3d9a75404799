const TWO_CJK_CHARACTERS = /^[\u4e00-\u9fa5]{2}$/;

/** A button label as antd writes it: two Chinese characters get a space between them ("登 录"). */
export function buttonLabel(text: string): string {
  return TWO_CJK_CHARACTERS.test(text) ? `${text[0]} ${text[1]}` : text;
}
