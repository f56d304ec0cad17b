/* A shared object that is not an NNAPI SL (no ANeuralNetworks_getSLDriverImpl): the plugin
 * loader must skip it with a reason. */
int nnapi_test_not_a_driver(void) { return 42; }
