/* TagLib is C++: Swift never imports it. This module only carries its pkg-config flags (-I, -ltag) to the C++ shim,
   CTagLibShim, whose C interface Swift does import. */
