import { createHash } from 'node:crypto';
import { toolDefinitionHash } from '../coverage/toolDefinitionHash';
import { descriptorParts, toolDescriptor } from './toolDescriptor';

describe('toolDescriptor', () => {
  const tool = {
    name: 'quote',
    inputSchema: { type: 'object', properties: { zone: { enum: ['a', 'b'] }, kg: { type: 'number' } } },
    description: 'Quote a parcel',
  };

  test('ignores key order and the name, and gives the parts back', () => {
    const reordered = {
      description: tool.description,
      inputSchema: { properties: tool.inputSchema.properties, type: 'object' },
      name: 'another',
    };
    expect(toolDescriptor(reordered)).toBe(toolDescriptor(tool));
    expect(descriptorParts(toolDescriptor(tool))).toEqual({
      description: 'Quote a parcel',
      inputSchema: tool.inputSchema,
      outputSchema: null,
    });
  });

  test("its sha256 is coverage's toolDefinitionHash, so lint and coverage agree on a redefinition", () => {
    const digest = createHash('sha256').update(toolDescriptor(tool)).digest('hex');
    expect(digest).toBe(toolDefinitionHash(tool));
    expect(toolDescriptor({ ...tool, description: 'changed' })).not.toBe(toolDescriptor(tool));
  });
});
