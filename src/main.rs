#[global_allocator]
static ALLOCATOR: algchess::memory::Counting = algchess::memory::Counting;

fn main() {
    std::process::exit(algchess::cli::main());
}
