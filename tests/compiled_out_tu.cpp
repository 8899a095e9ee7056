// Built with profiling compiled out: every macro must compile, keys included, and do nothing.
#define QPROF_ENABLED 0
#include <qprof/qprof.hpp>

struct DefId {
    unsigned krate;
    unsigned index;
};

int compiled_out_queries(int n) {
    PROFILE_ACTIVITY("compiled out pass");
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        const DefId id{0, static_cast<unsigned>(i)};
        PROFILE_QUERY(type_of, id);
        PROFILE_QUERY_NAMED("mir::borrowck", id, i);
        PROFILE_QUERY_HIT(type_of, id);
        PROFILE_QUERY_HIT_NAMED("mir::borrowck");
        PROFILE_ACTIVITY_ARG("compiled out unit", id);
        PROFILE_QUERY_CLASS(compile_loop, "jit", id);
        PROFILE_ACTIVITY_CLASS("compiled out pass", "jit");
        sum += static_cast<int>(id.index);
    }
    PROFILE_WAIT("compiled out wait");
    PROFILE_REGION("compiled out region");
    PROFILE_REGION_EXIT();
    PROFILE_SIZE("compiled out size", sum);
    PROFILE_COUNTER("compiled out counter", sum);
    return sum;
}

#if QPROF_ENABLED
#error "this translation unit must be built with profiling compiled out"
#endif
