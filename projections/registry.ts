import type { Projector } from './projector';

/** Every read model of the product. Add a projector here and the runner builds and keeps it. */
export const allProjectors: Projector[] = [];

export function findProjector(name: string): Projector | undefined {
  return allProjectors.find((projector) => projector.name === name);
}
