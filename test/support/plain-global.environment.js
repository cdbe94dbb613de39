import vm from 'node:vm';
import NodeEnvironment from 'jest-environment-node';

const DefaultNodeEnvironment = NodeEnvironment.default ?? NodeEnvironment;

/**
 * Jest's Node environment, its test files' context made with `vm.constants.DONT_CONTEXTIFY`: an
 * ordinary global object. Jest's own is a proxy behind the context's interceptors, which costs
 * every read of a global (`Object`, `Array`, `Reflect`, `JSON`...) about 240 ns against 6 ns
 * outside a context; drizzle building a statement ran three times slower in a test than in the
 * service. What Jest's proxy adds is deleting the globals a test file set, at its end: that
 * context is dropped then anyway.
 */
export default class PlainGlobalEnvironment extends DefaultNodeEnvironment {
  constructor(config, context) {
    const createContext = vm.createContext;
    vm.createContext = () => createContext(vm.constants.DONT_CONTEXTIFY);
    try {
      super(config, context);
    } finally {
      vm.createContext = createContext;
    }
    // A plain global is a context of its own; Jest's proxied one is not. Loud if a Jest release
    // stops making its context through `vm.createContext`, rather than every suite slower.
    if (!vm.isContext(this.global)) {
      throw new Error('plain-global environment: Jest did not make its context with vm.createContext');
    }
  }
}
