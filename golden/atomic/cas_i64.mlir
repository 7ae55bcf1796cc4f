entry @cas_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>, %arg2: tile<ptr<i32>>, %arg3: tile<ptr<i64>>, %arg4: tile<ptr<i64>>, %arg5: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>, tile<i32> -> tile<128xi64>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i64>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xi64, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>, tile<i32> -> tile<128xi64>, token
  %14 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %15 = make_tensor_view %14, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %17, %18 = load_view_tko weak %16[%1] token = %13 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %19 = exti %17 signed : tile<128xi32> -> tile<128xi64>
  %20 = constant <i64: 0> : tile<128xi64>
  %21 = cmpi greater_than_or_equal %19, %20, signed : tile<128xi64> -> tile<128xi1>
  %22 = reshape %arg5 : tile<i64> -> tile<1xi64>
  %23 = broadcast %22 : tile<1xi64> -> tile<128xi64>
  %24 = cmpi less_than %19, %23, signed : tile<128xi64> -> tile<128xi1>
  %25 = andi %21, %24 : tile<128xi1>
  %26 = constant <i32: 128> : tile<i32>
  %27 = muli %1, %26 : tile<i32>
  %28 = reshape %27 : tile<i32> -> tile<1xi32>
  %29 = broadcast %28 : tile<1xi32> -> tile<128xi32>
  %30 = iota : tile<128xi32>
  %31 = addi %29, %30 : tile<128xi32>
  %32 = constant <i32: 1000> : tile<128xi32>
  %33 = cmpi less_than %31, %32, signed : tile<128xi32> -> tile<128xi1>
  %34 = constant <i1: true> : tile<128xi1>
  %35 = xori %33, %34 : tile<128xi1>
  %36 = ori %25, %35 : tile<128xi1>
  assert %36, "kernel `cas_i64`: `atomic_cas_tko`: a lane addresses memory outside argument 3 (Shared) (at atomics.py:174)" : tile<128xi1>
  %37 = reshape %arg3 : tile<ptr<i64>> -> tile<1xptr<i64>>
  %38 = broadcast %37 : tile<1xptr<i64>> -> tile<128xptr<i64>>
  %39 = offset %38, %17 : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
  %40, %41 = atomic_cas_tko acquire device %39, %7, %12, %33 token=%18 : tile<128xptr<i64>>, tile<128xi64>, tile<128xi1> -> tile<128xi64>, token
  %42 = assume div_by<16>, %arg4 : tile<ptr<i64>>
  %43 = make_tensor_view %42, shape = [1000], strides = [1] : tensor_view<1000xi64, strides=[1]>
  %44 = make_partition_view %43 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>
  %45 = store_view_tko weak %40, %44[%1] token = %41 : tile<128xi64>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>, tile<i32> -> token
  return
}
