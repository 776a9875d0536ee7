// show_key NAME: the keys a lock name turns into, where each appears in
// pg_locks, and the psql expression that computes the advlock key.
#include <advlock.hpp>
#include <iostream>

namespace {

void print_key(const char *label, const advlock::key &key) {
    const advlock_pg_locks_key pg = key.to_pg_locks();
    std::cout << label << key.to_string() << "   (pg_locks: classid=" << pg.classid << " objid=" << pg.objid
              << " objsubid=" << pg.objsubid << ")\n";
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc != 2) {
        std::cerr << "usage: show_key NAME\n";
        return 64;
    }
    const std::string name = argv[1];
    print_key("advlock scheme:            ", advlock::key::from_name(name));
    print_key("with_advisory_lock scheme: ", advlock::key::from_name_compat(name));
    std::cout << "psql: SELECT " << advlock::name_key_sql(name) << ";\n";
    return 0;
} catch (const advlock::error &e) {
    std::cerr << "show_key: " << e.what() << '\n';
    return 65;
}
