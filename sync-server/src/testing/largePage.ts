import * as encoding from 'lib0/encoding';

/**
 * A page of `paragraphs` paragraphs (an XML fragment `content` of `paragraph` elements, each
 * holding one text) as one Yjs update, written straight in Yjs's update format: building it
 * through a Y.Doc takes ten seconds on a busy machine, this takes a few tens of ms. 40,000
 * paragraphs make 4.4 MB, the size the capacity goals name.
 */
export function largePageUpdate(paragraphs = 40_000, client = 4242): Uint8Array {
  const e = encoding.createEncoder();
  const id = (clock: number) => {
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, clock);
  };
  encoding.writeVarUint(e, 1); // one client
  encoding.writeVarUint(e, paragraphs * 3);
  encoding.writeVarUint(e, client);
  encoding.writeVarUint(e, 0); // from clock 0
  let clock = 0;
  let previous = -1;
  for (let i = 0; i < paragraphs; i++) {
    // The element: after the previous one, or first in the root fragment.
    const element = clock;
    if (previous < 0) {
      encoding.writeUint8(e, 7); // type content, no origin
      encoding.writeVarUint(e, 1);
      encoding.writeVarString(e, 'content');
    } else {
      encoding.writeUint8(e, 7 | 128); // type content, left origin
      id(previous);
    }
    encoding.writeVarUint(e, 3); // XML element
    encoding.writeVarString(e, 'paragraph');
    // Its text, first child of the element.
    encoding.writeUint8(e, 7);
    encoding.writeVarUint(e, 0);
    id(element);
    encoding.writeVarUint(e, 6); // XML text
    // The text's string.
    const text = `Paragraph ${i}: a sentence of ordinary documentation prose, as long as most.`;
    encoding.writeUint8(e, 4);
    encoding.writeVarUint(e, 0);
    id(element + 1);
    encoding.writeVarString(e, text);
    previous = element;
    clock = element + 2 + text.length;
  }
  encoding.writeVarUint(e, 0); // no deletions
  return encoding.toUint8Array(e);
}
