! halo.f90 — a 1-D Jacobi sweep in Fortran (use mpi): each iteration
! exchanges one value with both ring neighbours (MPI_Irecv, MPI_Isend,
! MPI_Waitall), sweeps its share, every 10 iterations sums the residue
! (MPI_Allreduce) and every 50 passes a value round the ring
! (MPI_Sendrecv); an MPI_Barrier at the end. Used by
! traces/waits/make-halo-stall.sh.
program halo
  use mpi
  implicit none
  integer, parameter :: n = 200000, niter = 400
  double precision, allocatable :: u(:), v(:)
  integer :: ierr, rank, nprocs, left, right, it, i, reqs(4)
  integer :: stats(MPI_STATUS_SIZE, 4), st(MPI_STATUS_SIZE)
  double precision :: res, gres, x, y

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  left = mod(rank - 1 + nprocs, nprocs)
  right = mod(rank + 1, nprocs)
  allocate(u(0:n + 1), v(0:n + 1))
  u = rank
  v = 0
  gres = 0
  do it = 1, niter
    call MPI_Irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Irecv(u(n + 1), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Isend(u(n), 1, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, reqs(4), ierr)
    call MPI_Waitall(4, reqs, stats, ierr)
    do i = 1, n
      v(i) = 0.5d0 * u(i) + 0.25d0 * (u(i - 1) + u(i + 1)) + 1d-9 * sin(dble(i + it))
    end do
    u(1:n) = v(1:n)
    if (mod(it, 10) == 0) then
      res = sum(abs(u(1:n)))
      call MPI_Allreduce(res, gres, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    if (mod(it, 50) == 0) then
      x = rank
      call MPI_Sendrecv(x, 1, MPI_DOUBLE_PRECISION, right, 3, y, 1, MPI_DOUBLE_PRECISION, left, 3, &
                        MPI_COMM_WORLD, st, ierr)
    end if
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, 'residue', gres
  call MPI_Finalize(ierr)
end program halo
